-- shop_customer
SELECT TO_JSON_STRING(ARRAY(
  SELECT AS STRUCT `t0`.`id` AS `id`
  FROM `shop`.`customer` AS `t0`
  WHERE (((LOWER(`t0`.`name`) LIKE LOWER(CAST(@p1 AS STRING)))) AND ((`t0`.`country` <> CAST(@p2 AS STRING))))
  ORDER BY CASE WHEN `t0`.`country` IS NULL THEN 0 ELSE 1 END, `t0`.`country` ASC, CASE WHEN `t0`.`id` IS NULL THEN 0 ELSE 1 END, `t0`.`id` DESC
  LIMIT 5
  OFFSET 5
)) AS root
-- params: [{"kind":"literal","value":"a%","query":true},{"kind":"literal","value":"US","query":true}]
