-- author_stats
SELECT coalesce(json_agg("__s".root ORDER BY "__s"."__order_0" ASC NULLS LAST), '[]') AS root
FROM (
  SELECT json_build_object(E'author_id', "_0"."author_id", E'article_count', "_0"."article_count", E'best_rating', "_0"."best_rating") AS root, "_0"."author_id" AS "__order_0"
  FROM "public"."author_stats" AS "_0"
  WHERE true
  ORDER BY "_0"."author_id" ASC NULLS LAST
) AS "__s";
