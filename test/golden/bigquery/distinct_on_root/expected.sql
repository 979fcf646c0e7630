-- shop_purchase
SELECT TO_JSON_STRING(ARRAY(
  SELECT AS STRUCT `t0`.`customer_id` AS `customer_id`, `t0`.`amount` AS `amount`
  FROM (
    SELECT *, ROW_NUMBER() OVER (PARTITION BY `t0`.`customer_id` ORDER BY CASE WHEN `t0`.`customer_id` IS NULL THEN 1 ELSE 0 END, `t0`.`customer_id` ASC, CASE WHEN `t0`.`amount` IS NULL THEN 1 ELSE 0 END, `t0`.`amount` DESC) AS `__distinct_row`
    FROM `shop`.`purchase` AS `t0`
    WHERE ((`t0`.`amount` > CAST(@p1 AS NUMERIC)))
  ) AS `t0`
  WHERE `t0`.`__distinct_row` = 1
  ORDER BY CASE WHEN `t0`.`customer_id` IS NULL THEN 1 ELSE 0 END, `t0`.`customer_id` ASC, CASE WHEN `t0`.`amount` IS NULL THEN 1 ELSE 0 END, `t0`.`amount` DESC
  LIMIT 10
  OFFSET 2
)) AS root
-- params: [{"kind":"literal","value":"0","query":true}]
