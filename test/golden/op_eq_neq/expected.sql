-- eq
SELECT coalesce(json_agg("__s".root), '[]') AS root
FROM (
  SELECT json_build_object(E'id', "_0"."id") AS root
  FROM "public"."article" AS "_0"
  WHERE ("_0"."title" = (E'Old News')::text)
) AS "__s";

-- neq
SELECT coalesce(json_agg("__s".root ORDER BY "__s"."__order_0" ASC NULLS LAST), '[]') AS root
FROM (
  SELECT json_build_object(E'id', "_0"."id") AS root, "_0"."id" AS "__order_0"
  FROM "public"."article" AS "_0"
  WHERE ("_0"."status" <> (E'published')::text)
  ORDER BY "_0"."id" ASC NULLS LAST
) AS "__s";
