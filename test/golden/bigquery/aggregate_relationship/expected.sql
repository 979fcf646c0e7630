-- shop_customer
SELECT TO_JSON_STRING(ARRAY(
  SELECT AS STRUCT STRUCT((
    SELECT STRUCT(COUNT(DISTINCT `t1`.`amount`) AS `count`, STRUCT(AVG(`t1`.`amount`) AS `amount`) AS `avg`)
    FROM `shop`.`purchase` AS `t1`
    WHERE (`t0`.`id` = `t1`.`customer_id`)
  ) AS `aggregate`) AS `purchases_aggregate`
  FROM `shop`.`customer` AS `t0`
)) AS root
-- params: []
