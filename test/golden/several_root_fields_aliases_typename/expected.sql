-- first
SELECT coalesce(json_agg("__s".root ORDER BY "__s"."__order_0" ASC NULLS LAST), '[]') AS root
FROM (
  SELECT json_build_object(E'__typename', E'author', E'name', "_0"."name") AS root, "_0"."id" AS "__order_0"
  FROM "public"."author" AS "_0"
  WHERE true
  ORDER BY "_0"."id" ASC NULLS LAST
  LIMIT (E'1')::bigint
) AS "__s";

-- second
SELECT json_build_object(E'name', "_0"."name") AS root
FROM "public"."author" AS "_0"
WHERE ("_0"."id" = (E'2')::integer)
LIMIT 1;

-- count
SELECT json_build_object(E'aggregate', json_build_object(E'count', count(*))) AS root
FROM (
  SELECT "_0".*
  FROM "public"."article" AS "_0"
  WHERE true
) AS "_1" ;
