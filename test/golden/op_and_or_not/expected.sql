-- article
SELECT coalesce(json_agg("__s".root ORDER BY "__s"."__order_0" ASC NULLS LAST), '[]') AS root
FROM (
  SELECT json_build_object(E'id', "_0"."id", E'status', "_0"."status", E'rating', "_0"."rating") AS root, "_0"."id" AS "__order_0"
  FROM "public"."article" AS "_0"
  WHERE ((("_0"."status" = (E'published')::text) AND ("_0"."rating" >= (E'8')::integer)) OR (NOT ("_0"."status" <> (E'draft')::text)))
  ORDER BY "_0"."id" ASC NULLS LAST
) AS "__s";
