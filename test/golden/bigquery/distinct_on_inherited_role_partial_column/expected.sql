-- shop_customer
SELECT TO_JSON_STRING(ARRAY(
  SELECT AS STRUCT `t0`.`id` AS `id`, CASE WHEN (`t0`.`country` IN (
    SELECT CAST(v AS STRING)
    FROM UNNEST(JSON_VALUE_ARRAY(@p1)) AS v
  )) THEN `t0`.`country` ELSE NULL END AS `country`
  FROM (
    SELECT *, ROW_NUMBER() OVER (PARTITION BY CASE WHEN (`t0`.`country` IN (
      SELECT CAST(v AS STRING)
      FROM UNNEST(JSON_VALUE_ARRAY(@p2)) AS v
    )) THEN `t0`.`country` ELSE NULL END ORDER BY CASE WHEN CASE WHEN (`t0`.`country` IN (
      SELECT CAST(v AS STRING)
      FROM UNNEST(JSON_VALUE_ARRAY(@p3)) AS v
    )) THEN `t0`.`country` ELSE NULL END IS NULL THEN 1 ELSE 0 END, CASE WHEN (`t0`.`country` IN (
      SELECT CAST(v AS STRING)
      FROM UNNEST(JSON_VALUE_ARRAY(@p4)) AS v
    )) THEN `t0`.`country` ELSE NULL END ASC, CASE WHEN `t0`.`id` IS NULL THEN 0 ELSE 1 END, `t0`.`id` DESC) AS `__distinct_row`
    FROM `shop`.`customer` AS `t0`
    WHERE (((`t0`.`id` = CAST(JSON_VALUE(@p5, '$."x-service-user-id"') AS INT64))) OR ((`t0`.`country` IN (
      SELECT CAST(v AS STRING)
      FROM UNNEST(JSON_VALUE_ARRAY(@p6)) AS v
    ))))
  ) AS `t0`
  WHERE `t0`.`__distinct_row` = 1
  ORDER BY CASE WHEN CASE WHEN (`t0`.`country` IN (
    SELECT CAST(v AS STRING)
    FROM UNNEST(JSON_VALUE_ARRAY(@p7)) AS v
  )) THEN `t0`.`country` ELSE NULL END IS NULL THEN 1 ELSE 0 END, CASE WHEN (`t0`.`country` IN (
    SELECT CAST(v AS STRING)
    FROM UNNEST(JSON_VALUE_ARRAY(@p8)) AS v
  )) THEN `t0`.`country` ELSE NULL END ASC, CASE WHEN `t0`.`id` IS NULL THEN 0 ELSE 1 END, `t0`.`id` DESC
)) AS root
-- params: [{"kind":"literal","value":"[\"FR\",\"JP\"]","query":true},{"kind":"literal","value":"[\"FR\",\"JP\"]","query":true},{"kind":"literal","value":"[\"FR\",\"JP\"]","query":true},{"kind":"literal","value":"[\"FR\",\"JP\"]","query":true},{"kind":"session"},{"kind":"literal","value":"[\"FR\",\"JP\"]","query":true},{"kind":"literal","value":"[\"FR\",\"JP\"]","query":true},{"kind":"literal","value":"[\"FR\",\"JP\"]","query":true}]
