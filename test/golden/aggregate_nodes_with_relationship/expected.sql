-- article_aggregate
SELECT json_build_object(E'__typename', E'article_aggregate', E'aggregate', json_build_object(E'count', count(*)), E'nodes', coalesce(json_agg(json_build_object(E'title', "_1"."title", E'author', "_2".root) ORDER BY "_1"."__order_0" DESC NULLS FIRST), '[]')) AS root
FROM (
  SELECT "_0".*, "_0"."id" AS "__order_0"
  FROM "public"."article" AS "_0"
  WHERE ("_0"."author_id" = (E'1')::integer)
  ORDER BY "_0"."id" DESC NULLS FIRST
) AS "_1"
LEFT JOIN LATERAL (
  SELECT json_build_object(E'name', "_3"."name") AS root
  FROM "public"."author" AS "_3"
  WHERE ("_1"."author_id" = "_3"."id")
  LIMIT 1
) AS "_2" ON true;
