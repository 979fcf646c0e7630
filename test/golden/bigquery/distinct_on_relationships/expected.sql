-- shop_customer
SELECT TO_JSON_STRING(ARRAY(
  SELECT AS STRUCT `t0`.`id` AS `id`, ARRAY(
    SELECT AS STRUCT `t1`.`id` AS `id`, `t1`.`at` AS `at`
    FROM (
      SELECT *, ROW_NUMBER() OVER (PARTITION BY `t1`.`customer_id`, `t1`.`amount` ORDER BY CASE WHEN `t1`.`customer_id` IS NULL THEN 1 ELSE 0 END, `t1`.`customer_id` ASC, CASE WHEN `t1`.`amount` IS NULL THEN 1 ELSE 0 END, `t1`.`amount` ASC, CASE WHEN `t1`.`at` IS NULL THEN 0 ELSE 1 END, `t1`.`at` DESC) AS `__distinct_row`
      FROM `shop`.`purchase` AS `t1`
      WHERE (`t0`.`id` = `t1`.`customer_id`)
    ) AS `t1`
    WHERE `t1`.`__distinct_row` = 1
    ORDER BY CASE WHEN `t1`.`customer_id` IS NULL THEN 1 ELSE 0 END, `t1`.`customer_id` ASC, CASE WHEN `t1`.`amount` IS NULL THEN 1 ELSE 0 END, `t1`.`amount` ASC, CASE WHEN `t1`.`at` IS NULL THEN 0 ELSE 1 END, `t1`.`at` DESC
  ) AS `purchases`, ARRAY(
    SELECT AS STRUCT `t2`.`id` AS `id`, `t2`.`amount` AS `amount`
    FROM (
      SELECT *, ROW_NUMBER() OVER (PARTITION BY `t2`.`amount`) AS `__distinct_row`
      FROM `shop`.`purchases_above`(`t0`.`id`, CAST(@p1 AS NUMERIC)) AS `t2`
    ) AS `t2`
    WHERE `t2`.`__distinct_row` = 1
  ) AS `big_purchases`
  FROM `shop`.`customer` AS `t0`
)) AS root
-- params: [{"kind":"literal","value":"100","query":true}]
