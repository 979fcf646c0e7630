-- author_by_pk
SELECT json_build_object(E'name', "_1"."name", E'stats', "_2".root) AS root
FROM (
  SELECT "_0".*
  FROM "public"."author" AS "_0"
  WHERE ((("_0"."is_active" = (E'true')::boolean) OR ("_0"."id" = (($1)::json->>E'x-service-user-id')::integer)) AND ("_0"."id" = (E'1')::integer))
  LIMIT 1
) AS "_1"
LEFT JOIN LATERAL (
  SELECT json_build_object(E'article_count', "_3"."article_count") AS root
  FROM "public"."author_stats" AS "_3"
  WHERE ("_1"."id" = "_3"."author_id")
  LIMIT 1
) AS "_2" ON true;

-- article_status
SELECT coalesce(json_agg("__s".root ORDER BY "__s"."__order_0" ASC NULLS LAST), '[]') AS root
FROM (
  SELECT json_build_object(E'value', "_0"."value") AS root, "_0"."value" AS "__order_0"
  FROM "public"."article_status" AS "_0"
  WHERE true
  ORDER BY "_0"."value" ASC NULLS LAST
) AS "__s";
