-- article
SELECT coalesce(json_agg("__s".root ORDER BY "__s"."__order_0" DESC NULLS FIRST), '[]') AS root
FROM (
  SELECT json_build_object(E'id', "_0"."id", E'title', "_0"."title", E'rating', "_0"."rating") AS root, "_0"."rating" AS "__order_0"
  FROM "public"."article" AS "_0"
  WHERE ("_0"."rating" >= (E'5')::integer)
  ORDER BY "_0"."rating" DESC NULLS FIRST
  LIMIT (E'2')::bigint
  OFFSET (E'1')::bigint
) AS "__s";
