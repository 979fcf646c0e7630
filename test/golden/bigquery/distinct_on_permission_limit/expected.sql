-- shop_customer
SELECT TO_JSON_STRING(ARRAY(
  SELECT AS STRUCT `t0`.`country` AS `country`
  FROM (
    SELECT *, ROW_NUMBER() OVER (PARTITION BY `t0`.`country`) AS `__distinct_row`
    FROM `shop`.`customer` AS `t0`
    WHERE ((`t0`.`country` IN (
      SELECT CAST(v AS STRING)
      FROM UNNEST(JSON_VALUE_ARRAY(@p1)) AS v
    )))
  ) AS `t0`
  WHERE `t0`.`__distinct_row` = 1
  LIMIT 100
)) AS root
-- params: [{"kind":"literal","value":"[\"FR\",\"JP\"]","query":true}]
