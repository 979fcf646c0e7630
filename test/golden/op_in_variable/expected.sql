-- article
SELECT coalesce(json_agg("__s".root ORDER BY "__s"."__order_0" DESC NULLS FIRST), '[]') AS root
FROM (
  SELECT json_build_object(E'id', "_0"."id", E'title', "_0"."title") AS root, "_0"."id" AS "__order_0"
  FROM "public"."article" AS "_0"
  WHERE ("_0"."id" = ANY(($1)::integer[]))
  ORDER BY "_0"."id" DESC NULLS FIRST
) AS "__s";
