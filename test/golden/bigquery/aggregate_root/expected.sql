-- shop_purchase_aggregate
SELECT TO_JSON_STRING(STRUCT((
  SELECT STRUCT(COUNT(*) AS `count`, STRUCT(SUM(`t1`.`amount`) AS `amount`) AS `sum`, STRUCT(MAX(`t1`.`at`) AS `at`) AS `max`)
  FROM `shop`.`purchase` AS `t1`
  WHERE ((`t1`.`customer_id` IN (
    SELECT CAST(v AS INT64)
    FROM UNNEST(JSON_VALUE_ARRAY(@p1)) AS v
  )))
) AS `aggregate`, ARRAY(
  SELECT AS STRUCT `t2`.`id` AS `id`
  FROM `shop`.`purchase` AS `t2`
  WHERE ((`t2`.`customer_id` IN (
    SELECT CAST(v AS INT64)
    FROM UNNEST(JSON_VALUE_ARRAY(@p2)) AS v
  )))
) AS `nodes`)) AS root
-- params: [{"kind":"literal","value":"[1,2]","query":true},{"kind":"literal","value":"[1,2]","query":true}]
