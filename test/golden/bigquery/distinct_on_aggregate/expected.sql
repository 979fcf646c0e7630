-- shop_purchase_aggregate
SELECT TO_JSON_STRING(STRUCT((
  SELECT STRUCT(COUNT(*) AS `count`, STRUCT(SUM(`t2`.`amount`) AS `amount`) AS `sum`)
  FROM (
    SELECT `t1`.*
    FROM (
      SELECT *, ROW_NUMBER() OVER (PARTITION BY `t1`.`customer_id` ORDER BY CASE WHEN `t1`.`customer_id` IS NULL THEN 1 ELSE 0 END, `t1`.`customer_id` ASC, CASE WHEN `t1`.`at` IS NULL THEN 0 ELSE 1 END, `t1`.`at` DESC) AS `__distinct_row`
      FROM `shop`.`purchase` AS `t1`
    ) AS `t1`
    WHERE `t1`.`__distinct_row` = 1
    ORDER BY CASE WHEN `t1`.`customer_id` IS NULL THEN 1 ELSE 0 END, `t1`.`customer_id` ASC, CASE WHEN `t1`.`at` IS NULL THEN 0 ELSE 1 END, `t1`.`at` DESC
  ) AS `t2`
) AS `aggregate`, ARRAY(
  SELECT AS STRUCT `t3`.`id` AS `id`, `t3`.`customer_id` AS `customer_id`
  FROM (
    SELECT *, ROW_NUMBER() OVER (PARTITION BY `t3`.`customer_id` ORDER BY CASE WHEN `t3`.`customer_id` IS NULL THEN 1 ELSE 0 END, `t3`.`customer_id` ASC, CASE WHEN `t3`.`at` IS NULL THEN 0 ELSE 1 END, `t3`.`at` DESC) AS `__distinct_row`
    FROM `shop`.`purchase` AS `t3`
  ) AS `t3`
  WHERE `t3`.`__distinct_row` = 1
  ORDER BY CASE WHEN `t3`.`customer_id` IS NULL THEN 1 ELSE 0 END, `t3`.`customer_id` ASC, CASE WHEN `t3`.`at` IS NULL THEN 0 ELSE 1 END, `t3`.`at` DESC
) AS `nodes`)) AS root
-- params: []
-- shop_customer
SELECT TO_JSON_STRING(ARRAY(
  SELECT AS STRUCT STRUCT((
    SELECT STRUCT(COUNT(*) AS `count`)
    FROM (
      SELECT `t1`.*
      FROM (
        SELECT *, ROW_NUMBER() OVER (PARTITION BY `t1`.`amount`) AS `__distinct_row`
        FROM `shop`.`purchase` AS `t1`
        WHERE (`t0`.`id` = `t1`.`customer_id`)
      ) AS `t1`
      WHERE `t1`.`__distinct_row` = 1
    ) AS `t2`
  ) AS `aggregate`) AS `purchases_aggregate`
  FROM `shop`.`customer` AS `t0`
)) AS root
-- params: []
