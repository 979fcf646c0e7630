-- shop_customer
SELECT TO_JSON_STRING(ARRAY(
  SELECT AS STRUCT `t0`.`id` AS `id`, `t0`.`name` AS `name`
  FROM `shop`.`customer` AS `t0`
  WHERE ((`t0`.`id` = CAST(JSON_VALUE(@p1, '$."x-service-user-id"') AS INT64)))
)) AS root
-- params: [{"kind":"session"}]
-- shop_purchase
SELECT TO_JSON_STRING(ARRAY(
  SELECT AS STRUCT `t0`.`amount` AS `amount`
  FROM `shop`.`purchase` AS `t0`
  WHERE (EXISTS (
    SELECT 1
    FROM `shop`.`customer` AS `t1`
    WHERE (`t0`.`customer_id` = `t1`.`id`) AND ((`t1`.`id` = CAST(JSON_VALUE(@p1, '$."x-service-user-id"') AS INT64)))
  ))
)) AS root
-- params: [{"kind":"session"}]
