-- article
SELECT coalesce(json_agg("__s".root ORDER BY "__s"."__order_0" ASC NULLS LAST, "__s"."__order_1" DESC NULLS LAST), '[]') AS root
FROM (
  SELECT DISTINCT ON ("_0"."author_id") json_build_object(E'author_id', "_0"."author_id", E'title', "_0"."title", E'rating', "_0"."rating") AS root, "_0"."author_id" AS "__order_0", "_0"."rating" AS "__order_1"
  FROM "public"."article" AS "_0"
  WHERE true
  ORDER BY "_0"."author_id" ASC NULLS LAST, "_0"."rating" DESC NULLS LAST
) AS "__s";
