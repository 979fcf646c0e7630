-- shop_customer
SELECT TO_JSON_STRING(ARRAY(
  SELECT AS STRUCT `t0`.`name` AS `name`, `t0`.`id` AS `__orders_id`
  FROM `shop`.`customer` AS `t0`
)) AS root
-- params: []
-- 1
SELECT CONCAT('[', ARRAY_TO_STRING(ARRAY(
  SELECT IFNULL(TO_JSON_STRING(ARRAY(
    SELECT AS STRUCT `t0`.`id` AS `id`, `t0`.`amount` AS `amount`
    FROM (
      SELECT *, ROW_NUMBER() OVER (PARTITION BY `t0`.`amount` ORDER BY CASE WHEN `t0`.`amount` IS NULL THEN 0 ELSE 1 END, `t0`.`amount` DESC) AS `__distinct_row`
      FROM `shop`.`purchase` AS `t0`
      WHERE (`t1`.`id` = `t0`.`customer_id`)
    ) AS `t0`
    WHERE `t0`.`__distinct_row` = 1
    ORDER BY CASE WHEN `t0`.`amount` IS NULL THEN 0 ELSE 1 END, `t0`.`amount` DESC
    LIMIT 2
  )), 'null')
  FROM (
    SELECT `__ord`, CAST(JSON_VALUE(`__key`, '$."id"') AS INT64) AS `id`
    FROM UNNEST(JSON_QUERY_ARRAY(@p1)) AS `__key` WITH
    OFFSET AS `__ord`
  ) AS `t1`
  ORDER BY `t1`.`__ord`
), ','), ']') AS root
-- params: [{"kind":"join-keys"}]
