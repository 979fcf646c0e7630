-- author
SELECT coalesce(json_agg("__s".root), '[]') AS root
FROM (
  SELECT json_build_object(E'name', "_1"."name", E'articles', "_2".root, E'comments', "_4".root) AS root
  FROM (
    SELECT "_0".*
    FROM "public"."author" AS "_0"
    WHERE ((("_0"."is_active" = (E'true')::boolean) OR ("_0"."id" = (($1)::json->>E'x-service-user-id')::integer)) AND ("_0"."id" = (E'2')::integer))
  ) AS "_1"
  LEFT JOIN LATERAL (
    SELECT coalesce(json_agg("__s".root ORDER BY "__s"."__order_0" ASC NULLS LAST), '[]') AS root
    FROM (
      SELECT json_build_object(E'title', "_3"."title", E'status', "_3"."status") AS root, "_3"."id" AS "__order_0"
      FROM "public"."article" AS "_3"
      WHERE (("_1"."id" = "_3"."author_id") AND (("_3"."status" = (E'published')::text) OR ("_3"."author_id" = (($1)::json->>E'x-service-user-id')::integer)))
      ORDER BY "_3"."id" ASC NULLS LAST
    ) AS "__s"
  ) AS "_2" ON true
  LEFT JOIN LATERAL (
    SELECT coalesce(json_agg("__s".root ORDER BY "__s"."__order_0" ASC NULLS LAST), '[]') AS root
    FROM (
      SELECT json_build_object(E'text', "_7"."body", E'article', "_8".root) AS root, "_7"."__order_0"
      FROM (
        SELECT "_5".*, "_5"."id" AS "__order_0"
        FROM "public"."comment" AS "_5"
        WHERE (("_1"."id" = "_5"."commenter_id") AND EXISTS (
          SELECT 1
          FROM "public"."article" AS "_6"
          WHERE (("_5"."article_id" = "_6"."id") AND ("_6"."status" = (E'published')::text))
        ))
        ORDER BY "_5"."id" ASC NULLS LAST
      ) AS "_7"
      LEFT JOIN LATERAL (
        SELECT json_build_object(E'title', "_9"."title") AS root
        FROM "public"."article" AS "_9"
        WHERE (("_7"."article_id" = "_9"."id") AND (("_9"."status" = (E'published')::text) OR ("_9"."author_id" = (($1)::json->>E'x-service-user-id')::integer)))
        LIMIT 1
      ) AS "_8" ON true
    ) AS "__s"
  ) AS "_4" ON true
) AS "__s";
