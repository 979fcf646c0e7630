-- article
SELECT coalesce(json_agg("__s".root ORDER BY "__s"."__order_0" ASC NULLS LAST), '[]') AS root
FROM (
  SELECT json_build_object(E'title', "_1"."title", E'author', "_2".root) AS root, "_1"."__order_0"
  FROM (
    SELECT "_0".*, "_0"."id" AS "__order_0"
    FROM "public"."article" AS "_0"
    WHERE ("_0"."id" = ANY((ARRAY[E'1', E'4'])::integer[]))
    ORDER BY "_0"."id" ASC NULLS LAST
  ) AS "_1"
  LEFT JOIN LATERAL (
    SELECT json_build_object(E'name', "_3"."name", E'email', "_3"."email") AS root
    FROM "public"."author" AS "_3"
    WHERE ("_1"."author_id" = "_3"."id")
    LIMIT 1
  ) AS "_2" ON true
) AS "__s";
