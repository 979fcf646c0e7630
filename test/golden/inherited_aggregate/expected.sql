-- article_aggregate
SELECT json_build_object(E'aggregate', json_build_object(E'count', count(*), E'max', json_build_object(E'rating', max("_2"."rating")))) AS root
FROM (
  SELECT "_0".*
  FROM "public"."article" AS "_0"
  WHERE ((("_0"."status" = (E'published')::text) AND (NOT ("_0"."rating" IS NULL)) AND EXISTS (
    SELECT 1
    FROM "public"."author" AS "_1"
    WHERE (("_0"."author_id" = "_1"."id") AND ("_1"."is_active" = (E'true')::boolean))
  )) OR ("_0"."rating" >= (E'7')::integer))
) AS "_2" ;
