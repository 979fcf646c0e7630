-- search_articles
SELECT coalesce(json_agg("__s".root ORDER BY "__s"."__order_0" ASC NULLS LAST), '[]') AS root
FROM (
  SELECT json_build_object(E'id', "_0"."id", E'title', "_0"."title", E'status', "_0"."status") AS root, "_0"."id" AS "__order_0"
  FROM "public"."search_articles"(($1)::text) AS "_0"
  WHERE ("_0"."status" = (E'published')::text)
  ORDER BY "_0"."id" ASC NULLS LAST
) AS "__s";
