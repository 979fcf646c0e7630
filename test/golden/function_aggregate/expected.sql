-- search_articles_aggregate
SELECT json_build_object(E'aggregate', json_build_object(E'count', count(*), E'max', json_build_object(E'rating', max("_1"."rating")))) AS root
FROM (
  SELECT "_0".*
  FROM "public"."search_articles"((E'e')::text) AS "_0"
  WHERE true
) AS "_1" ;
