-- shop_customer
SELECT TO_JSON_STRING(ARRAY(
  SELECT AS STRUCT `t0`.`name` AS `name`, ARRAY(
    SELECT AS STRUCT `t1`.`amount` AS `amount`, (
      SELECT AS STRUCT `t2`.`name` AS `name`
      FROM `shop`.`customer` AS `t2`
      WHERE (`t1`.`customer_id` = `t2`.`id`)
      LIMIT 1
    ) AS `customer`
    FROM `shop`.`purchase` AS `t1`
    WHERE (`t0`.`id` = `t1`.`customer_id`) AND ((`t1`.`amount` > CAST(@p1 AS NUMERIC)))
    ORDER BY CASE WHEN `t1`.`at` IS NULL THEN 0 ELSE 1 END, `t1`.`at` DESC
    LIMIT 2
  ) AS `purchases`
  FROM `shop`.`customer` AS `t0`
)) AS root
-- params: [{"kind":"literal","value":"10","query":true}]
