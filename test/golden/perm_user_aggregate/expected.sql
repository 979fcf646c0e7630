-- article_aggregate
SELECT json_build_object(E'aggregate', json_build_object(E'count', count(*), E'sum', json_build_object(E'rating', sum("_1"."rating")))) AS root
FROM (
  SELECT "_0".*
  FROM "public"."article" AS "_0"
  WHERE (("_0"."status" = (E'published')::text) OR ("_0"."author_id" = (($1)::json->>E'x-service-user-id')::integer))
) AS "_1" ;
