-- author
SELECT coalesce(json_agg("__s".root ORDER BY "__s"."__order_0" ASC NULLS LAST), '[]') AS root
FROM (
  SELECT json_build_object(E'name', "_0"."name") AS root, "_0"."id" AS "__order_0"
  FROM "public"."author" AS "_0"
  WHERE EXISTS (
    SELECT 1
    FROM "public"."article" AS "_1"
    WHERE (("_0"."id" = "_1"."author_id") AND ("_1"."rating" >= (E'8')::integer) AND true)
  )
  ORDER BY "_0"."id" ASC NULLS LAST
) AS "__s";
