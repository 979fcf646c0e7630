-- article
SELECT coalesce(json_agg("__s".root ORDER BY "__s"."__order_0" DESC NULLS FIRST, "__s"."__order_1" ASC NULLS LAST), '[]') AS root
FROM (
  SELECT json_build_object(E'id', "_2"."id", E'title', "_2"."title", E'author', "_3".root) AS root, "_2"."__order_0", "_2"."__order_1"
  FROM (
    SELECT "_0".*, "_1"."name" AS "__order_0", "_0"."id" AS "__order_1"
    FROM "public"."article" AS "_0"
    LEFT JOIN LATERAL (
      SELECT *
      FROM "public"."author" AS "_1"
      WHERE (("_0"."author_id" = "_1"."id") AND true)
      LIMIT 1
    ) AS "_1" ON true
    WHERE true
    ORDER BY "_1"."name" DESC NULLS FIRST, "_0"."id" ASC NULLS LAST
    LIMIT (E'4')::bigint
  ) AS "_2"
  LEFT JOIN LATERAL (
    SELECT json_build_object(E'name', "_4"."name") AS root
    FROM "public"."author" AS "_4"
    WHERE ("_2"."author_id" = "_4"."id")
    LIMIT 1
  ) AS "_3" ON true
) AS "__s";
