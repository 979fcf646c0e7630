-- article
SELECT coalesce(json_agg("__s".root ORDER BY "__s"."__order_0" ASC NULLS LAST), '[]') AS root
FROM (
  SELECT json_build_object(E'id', "_0"."id", E'title', CASE WHEN (("_0"."status" = (E'published')::text) AND (NOT ("_0"."rating" IS NULL)) AND EXISTS (
    SELECT 1
    FROM "public"."author" AS "_2"
    WHERE (("_0"."author_id" = "_2"."id") AND ("_2"."is_active" = (E'true')::boolean))
  )) THEN "_0"."title" ELSE NULL END, E'body', CASE WHEN ("_0"."rating" >= (E'7')::integer) THEN "_0"."body" ELSE NULL END, E'rating', "_0"."rating") AS root, "_0"."id" AS "__order_0"
  FROM "public"."article" AS "_0"
  WHERE ((("_0"."status" = (E'published')::text) AND (NOT ("_0"."rating" IS NULL)) AND EXISTS (
    SELECT 1
    FROM "public"."author" AS "_1"
    WHERE (("_0"."author_id" = "_1"."id") AND ("_1"."is_active" = (E'true')::boolean))
  )) OR ("_0"."rating" >= (E'7')::integer))
  ORDER BY "_0"."id" ASC NULLS LAST
) AS "__s";
