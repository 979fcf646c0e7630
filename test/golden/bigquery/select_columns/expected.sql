-- shop_customer
SELECT TO_JSON_STRING(ARRAY(
  SELECT AS STRUCT `t0`.`id` AS `id`, `t0`.`name` AS `name`, `t0`.`country` AS `country`
  FROM `shop`.`customer` AS `t0`
)) AS root
-- params: []
-- shop_big_spenders
SELECT TO_JSON_STRING(ARRAY(
  SELECT AS STRUCT `t0`.`customer_id` AS `customer_id`
  FROM `shop`.`big_spenders` AS `t0`
)) AS root
-- params: []
