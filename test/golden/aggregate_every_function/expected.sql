-- article_aggregate
SELECT json_build_object(E'aggregate', json_build_object(E'count', count(*), E'rated', count("_1"."rating"), E'authors', count(DISTINCT "_1"."author_id"), E'sum', json_build_object(E'rating', sum("_1"."rating")), E'avg', json_build_object(E'rating', avg("_1"."rating")), E'max', json_build_object(E'rating', max("_1"."rating"), E'title', max("_1"."title"), E'published_at', max("_1"."published_at")), E'min', json_build_object(E'rating', min("_1"."rating"), E'title', min("_1"."title")), E'stddev', json_build_object(E'rating', stddev("_1"."rating")), E'variance', json_build_object(E'rating', variance("_1"."rating"))), E'nodes', coalesce(json_agg(json_build_object(E'id', "_1"."id") ORDER BY "_1"."__order_0" ASC NULLS LAST), '[]')) AS root
FROM (
  SELECT "_0".*, "_0"."id" AS "__order_0"
  FROM "public"."article" AS "_0"
  WHERE ("_0"."status" = (E'published')::text)
  ORDER BY "_0"."id" ASC NULLS LAST
) AS "_1" ;
