-- first
SELECT coalesce(json_agg("__s".root ORDER BY "__s"."__order_0" ASC NULLS FIRST, "__s"."__order_1" ASC NULLS LAST), '[]') AS root
FROM (
  SELECT json_build_object(E'id', "_0"."id", E'rating', "_0"."rating") AS root, "_0"."rating" AS "__order_0", "_0"."id" AS "__order_1"
  FROM "public"."article" AS "_0"
  WHERE true
  ORDER BY "_0"."rating" ASC NULLS FIRST, "_0"."id" ASC NULLS LAST
  LIMIT (E'3')::bigint
) AS "__s";

-- last
SELECT coalesce(json_agg("__s".root ORDER BY "__s"."__order_0" DESC NULLS LAST, "__s"."__order_1" ASC NULLS LAST), '[]') AS root
FROM (
  SELECT json_build_object(E'id', "_0"."id", E'rating', "_0"."rating") AS root, "_0"."rating" AS "__order_0", "_0"."id" AS "__order_1"
  FROM "public"."article" AS "_0"
  WHERE true
  ORDER BY "_0"."rating" DESC NULLS LAST, "_0"."id" ASC NULLS LAST
  LIMIT (E'3')::bigint
) AS "__s";
