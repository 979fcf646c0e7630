-- shop_customer
SELECT TO_JSON_STRING(ARRAY(
  SELECT AS STRUCT `t0`.`id` AS `id`, ARRAY(
    SELECT AS STRUCT `t1`.`amount` AS `amount`
    FROM `shop`.`purchases_above`(`t0`.`id`, CAST(@p1 AS NUMERIC)) AS `t1`
    WHERE ((`t1`.`amount` > CAST(@p2 AS NUMERIC)))
  ) AS `big_purchases`
  FROM `shop`.`customer` AS `t0`
  WHERE ((`t0`.`id` = CAST(JSON_VALUE(@p3, '$."x-service-user-id"') AS INT64)))
)) AS root
-- params: [{"kind":"literal","value":"5","query":true},{"kind":"literal","value":"0","query":true},{"kind":"session"}]
