-- shop_customer
SELECT TO_JSON_STRING(ARRAY(
  SELECT AS STRUCT `t0`.`id` AS `id`, ARRAY(
    SELECT AS STRUCT `t1`.`id` AS `id`, `t1`.`amount` AS `amount`
    FROM `shop`.`purchases_above`(`t0`.`id`, CAST(@p1 AS NUMERIC)) AS `t1`
    WHERE ((`t1`.`amount` > CAST(@p2 AS NUMERIC)))
    ORDER BY CASE WHEN `t1`.`amount` IS NULL THEN 0 ELSE 1 END, `t1`.`amount` DESC
    LIMIT 3
  ) AS `big_purchases`
  FROM `shop`.`customer` AS `t0`
)) AS root
-- params: [{"kind":"literal","value":"100","query":true},{"kind":"literal","value":"200","query":true}]
