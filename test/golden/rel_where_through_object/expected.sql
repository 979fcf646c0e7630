-- comment
SELECT coalesce(json_agg("__s".root ORDER BY "__s"."__order_0" ASC NULLS LAST), '[]') AS root
FROM (
  SELECT json_build_object(E'text', "_0"."body") AS root, "_0"."id" AS "__order_0"
  FROM "public"."comment" AS "_0"
  WHERE EXISTS (
    SELECT 1
    FROM "public"."article" AS "_1"
    WHERE (("_0"."article_id" = "_1"."id") AND EXISTS (
      SELECT 1
      FROM "public"."author" AS "_2"
      WHERE (("_1"."author_id" = "_2"."id") AND ("_2"."name" = (E'Cy')::text) AND true)
    ) AND true)
  )
  ORDER BY "_0"."id" ASC NULLS LAST
) AS "__s";
