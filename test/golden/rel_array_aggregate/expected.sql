-- author
SELECT coalesce(json_agg("__s".root ORDER BY "__s"."__order_0" ASC NULLS LAST), '[]') AS root
FROM (
  SELECT json_build_object(E'name', "_1"."name", E'articles_aggregate', "_2".root) AS root, "_1"."__order_0"
  FROM (
    SELECT "_0".*, "_0"."id" AS "__order_0"
    FROM "public"."author" AS "_0"
    WHERE true
    ORDER BY "_0"."id" ASC NULLS LAST
  ) AS "_1"
  LEFT JOIN LATERAL (
    SELECT json_build_object(E'aggregate', json_build_object(E'count', count(*), E'avg', json_build_object(E'rating', avg("_4"."rating")), E'max', json_build_object(E'rating', max("_4"."rating")))) AS root
    FROM (
      SELECT "_3".*
      FROM "public"."article" AS "_3"
      WHERE (("_1"."id" = "_3"."author_id") AND ("_3"."rating" IS NOT NULL))
    ) AS "_4"
  ) AS "_2" ON true
) AS "__s";
