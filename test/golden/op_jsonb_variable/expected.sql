-- article
SELECT coalesce(json_agg("__s".root ORDER BY "__s"."__order_0" ASC NULLS LAST), '[]') AS root
FROM (
  SELECT json_build_object(E'title', "_0"."title", E'meta', "_0"."meta") AS root, "_0"."id" AS "__order_0"
  FROM "public"."article" AS "_0"
  WHERE ("_0"."meta" @> ($1)::jsonb)
  ORDER BY "_0"."id" ASC NULLS LAST
) AS "__s";
