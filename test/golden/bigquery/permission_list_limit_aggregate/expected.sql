-- shop_customer
SELECT TO_JSON_STRING(ARRAY(
  SELECT AS STRUCT `t0`.`country` AS `country`
  FROM `shop`.`customer` AS `t0`
  WHERE ((`t0`.`country` IN (
    SELECT CAST(v AS STRING)
    FROM UNNEST(JSON_VALUE_ARRAY(@p1)) AS v
  )))
  LIMIT 100
)) AS root
-- params: [{"kind":"literal","value":"[\"FR\",\"JP\"]","query":true}]
-- shop_customer_aggregate
SELECT TO_JSON_STRING(STRUCT((
  SELECT STRUCT(COUNT(*) AS `count`)
  FROM (
    SELECT `t1`.*
    FROM `shop`.`customer` AS `t1`
    WHERE ((`t1`.`country` IN (
      SELECT CAST(v AS STRING)
      FROM UNNEST(JSON_VALUE_ARRAY(@p1)) AS v
    )))
    LIMIT 100
  ) AS `t2`
) AS `aggregate`)) AS root
-- params: [{"kind":"literal","value":"[\"FR\",\"JP\"]","query":true}]
