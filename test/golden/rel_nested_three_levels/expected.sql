-- author_by_pk
SELECT json_build_object(E'name', "_1"."name", E'articles', "_2".root) AS root
FROM (
  SELECT "_0".*
  FROM "public"."author" AS "_0"
  WHERE ("_0"."id" = (E'1')::integer)
  LIMIT 1
) AS "_1"
LEFT JOIN LATERAL (
  SELECT coalesce(json_agg("__s".root ORDER BY "__s"."__order_0" ASC NULLS LAST), '[]') AS root
  FROM (
    SELECT json_build_object(E'title', "_4"."title", E'comments', "_5".root) AS root, "_4"."__order_0"
    FROM (
      SELECT "_3".*, "_3"."id" AS "__order_0"
      FROM "public"."article" AS "_3"
      WHERE ("_1"."id" = "_3"."author_id")
      ORDER BY "_3"."id" ASC NULLS LAST
    ) AS "_4"
    LEFT JOIN LATERAL (
      SELECT coalesce(json_agg("__s".root ORDER BY "__s"."__order_0" ASC NULLS LAST), '[]') AS root
      FROM (
        SELECT json_build_object(E'text', "_7"."body", E'commenter', "_8".root) AS root, "_7"."__order_0"
        FROM (
          SELECT "_6".*, "_6"."id" AS "__order_0"
          FROM "public"."comment" AS "_6"
          WHERE ("_4"."id" = "_6"."article_id")
          ORDER BY "_6"."id" ASC NULLS LAST
        ) AS "_7"
        LEFT JOIN LATERAL (
          SELECT json_build_object(E'name', "_9"."name") AS root
          FROM "public"."author" AS "_9"
          WHERE ("_7"."commenter_id" = "_9"."id")
          LIMIT 1
        ) AS "_8" ON true
      ) AS "__s"
    ) AS "_5" ON true
  ) AS "__s"
) AS "_2" ON true;
