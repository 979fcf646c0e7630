-- author
SELECT coalesce(json_agg("__s".root ORDER BY "__s"."__order_0" ASC NULLS LAST), '[]') AS root
FROM (
  SELECT json_build_object(E'name', "_1"."name", E'top_articles', "_2".root) AS root, "_1"."__order_0"
  FROM (
    SELECT "_0".*, "_0" AS "__row", "_0"."id" AS "__order_0"
    FROM "public"."author" AS "_0"
    WHERE true
    ORDER BY "_0"."id" ASC NULLS LAST
  ) AS "_1"
  LEFT JOIN LATERAL (
    SELECT coalesce(json_agg("__s".root ORDER BY "__s"."__order_0" DESC NULLS FIRST), '[]') AS root
    FROM (
      SELECT json_build_object(E'title', "_3"."title", E'rating', "_3"."rating") AS root, "_3"."rating" AS "__order_0"
      FROM "public"."author_top_articles"("_1"."__row", (E'7')::integer) AS "_3"
      WHERE true
      ORDER BY "_3"."rating" DESC NULLS FIRST
    ) AS "__s"
  ) AS "_2" ON true
) AS "__s";
