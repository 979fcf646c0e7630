-- shop_purchase
SELECT TO_JSON_STRING(ARRAY(
  SELECT AS STRUCT `t0`.`id` AS `id`
  FROM `shop`.`purchase` AS `t0`
  WHERE ((((`t0`.`amount` IS NULL)) OR (NOT ((`t0`.`amount` <= CAST(@p1 AS NUMERIC))))) AND ((`t0`.`id` NOT IN (
    SELECT CAST(v AS INT64)
    FROM UNNEST(JSON_VALUE_ARRAY(@p2)) AS v
  ))) AND (EXISTS (
    SELECT 1
    FROM `shop`.`customer` AS `t1`
    WHERE (`t0`.`customer_id` = `t1`.`id`) AND ((`t1`.`name` LIKE CAST(@p3 AS STRING)))
  )))
)) AS root
-- params: [{"kind":"literal","value":"5","query":true},{"kind":"literal","value":"[3]","query":true},{"kind":"literal","value":"%x%","query":true}]
