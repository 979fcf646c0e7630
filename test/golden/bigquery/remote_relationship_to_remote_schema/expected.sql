-- shop_customer
SELECT TO_JSON_STRING(ARRAY(
  SELECT AS STRUCT `t0`.`name` AS `name`, `t0`.`id` AS `__shipments_id`
  FROM `shop`.`customer` AS `t0`
  WHERE ((`t0`.`country` = CAST(@p1 AS STRING)))
)) AS root
-- params: [{"kind":"literal","value":"FR","query":true}]
-- 1 remote shipping: ["shipments(limit: 2, customer: ",") {\n  carrier: carrier\n}"]
