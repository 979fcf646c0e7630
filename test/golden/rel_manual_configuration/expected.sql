-- author
SELECT coalesce(json_agg("__s".root ORDER BY "__s"."__order_0" ASC NULLS LAST), '[]') AS root
FROM (
  SELECT json_build_object(E'name', "_1"."name", E'stats', "_2".root) AS root, "_1"."__order_0"
  FROM (
    SELECT "_0".*, "_0"."id" AS "__order_0"
    FROM "public"."author" AS "_0"
    WHERE true
    ORDER BY "_0"."id" ASC NULLS LAST
  ) AS "_1"
  LEFT JOIN LATERAL (
    SELECT json_build_object(E'article_count', "_3"."article_count", E'best_rating', "_3"."best_rating") AS root
    FROM "public"."author_stats" AS "_3"
    WHERE ("_1"."id" = "_3"."author_id")
    LIMIT 1
  ) AS "_2" ON true
) AS "__s";
