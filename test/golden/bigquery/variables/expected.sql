-- shop_customer
SELECT TO_JSON_STRING(ARRAY(
  SELECT AS STRUCT `t0`.`id` AS `id`
  FROM `shop`.`customer` AS `t0`
  WHERE (((`t0`.`country` = CAST(@p1 AS STRING))) AND ((`t0`.`id` IN (
    SELECT CAST(v AS INT64)
    FROM UNNEST(JSON_VALUE_ARRAY(@p2)) AS v
  ))))
)) AS root
-- params: [{"kind":"variable","name":"c","path":[],"coerce":"scalar"},{"kind":"variable","name":"ids","path":[],"coerce":"json"}]
