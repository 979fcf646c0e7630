-- remarks
SELECT coalesce(json_agg("__s".root ORDER BY "__s"."__order_0" ASC NULLS LAST), '[]') AS root
FROM (
  SELECT json_build_object(E'id', "_2"."id", E'text', "_2"."body", E'commenterId', "_2"."commenter_id", E'article', "_3".root) AS root, "_2"."__order_0"
  FROM (
    SELECT "_0".*, "_0"."id" AS "__order_0"
    FROM "public"."comment" AS "_0"
    WHERE EXISTS (
      SELECT 1
      FROM "public"."article" AS "_1"
      WHERE (("_0"."article_id" = "_1"."id") AND ("_1"."status" = (E'published')::text))
    )
    ORDER BY "_0"."id" ASC NULLS LAST
  ) AS "_2"
  LEFT JOIN LATERAL (
    SELECT json_build_object(E'title', "_4"."title") AS root
    FROM "public"."article" AS "_4"
    WHERE (("_2"."article_id" = "_4"."id") AND (("_4"."status" = (E'published')::text) OR ("_4"."author_id" = (($1)::json->>E'x-service-user-id')::integer)))
    LIMIT 1
  ) AS "_3" ON true
) AS "__s";
