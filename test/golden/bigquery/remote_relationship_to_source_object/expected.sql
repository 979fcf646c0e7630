-- shop_purchase
SELECT TO_JSON_STRING(ARRAY(
  SELECT AS STRUCT `t0`.`amount` AS `amount`, `t0`.`customer_id` AS `__buyer_customer_id`
  FROM `shop`.`purchase` AS `t0`
  WHERE ((`t0`.`amount` > CAST(@p1 AS NUMERIC)))
)) AS root
-- params: [{"kind":"literal","value":"0","query":true}]
-- 1
SELECT CONCAT('[', ARRAY_TO_STRING(ARRAY(
  SELECT IFNULL(TO_JSON_STRING((
    SELECT AS STRUCT `t0`.`name` AS `name`
    FROM `shop`.`customer` AS `t0`
    WHERE (`t1`.`customer_id` = `t0`.`id`) AND ((`t0`.`id` = CAST(JSON_VALUE(@p1, '$."x-service-user-id"') AS INT64)))
    LIMIT 1
  )), 'null')
  FROM (
    SELECT `__ord`, CAST(JSON_VALUE(`__key`, '$."customer_id"') AS INT64) AS `customer_id`
    FROM UNNEST(JSON_QUERY_ARRAY(@p2)) AS `__key` WITH
    OFFSET AS `__ord`
  ) AS `t1`
  ORDER BY `t1`.`__ord`
), ','), ']') AS root
-- params: [{"kind":"session"},{"kind":"join-keys"}]
