-- article
SELECT coalesce(json_agg("__s".root ORDER BY "__s"."__order_0" ASC NULLS LAST), '[]') AS root
FROM (
  SELECT json_build_object(E'id', "_0"."id", E'title', "_0"."title", E'rating', "_0"."rating", E'author_id', "_0"."author_id") AS root, "_0"."id" AS "__order_0"
  FROM "public"."article" AS "_0"
  WHERE (("_0"."status" = (E'published')::text) AND (NOT ("_0"."rating" IS NULL)) AND EXISTS (
    SELECT 1
    FROM "public"."author" AS "_1"
    WHERE (("_0"."author_id" = "_1"."id") AND ("_1"."is_active" = (E'true')::boolean))
  ))
  ORDER BY "_0"."id" ASC NULLS LAST
  LIMIT 3
) AS "__s";
