-- in
SELECT coalesce(json_agg("__s".root ORDER BY "__s"."__order_0" ASC NULLS LAST), '[]') AS root
FROM (
  SELECT json_build_object(E'id', "_0"."id") AS root, "_0"."id" AS "__order_0"
  FROM "public"."article" AS "_0"
  WHERE ("_0"."id" = ANY((ARRAY[E'1', E'3', E'99'])::integer[]))
  ORDER BY "_0"."id" ASC NULLS LAST
) AS "__s";

-- nin
SELECT coalesce(json_agg("__s".root ORDER BY "__s"."__order_0" ASC NULLS LAST), '[]') AS root
FROM (
  SELECT json_build_object(E'id', "_0"."id") AS root, "_0"."id" AS "__order_0"
  FROM "public"."article" AS "_0"
  WHERE ("_0"."id" <> ALL((ARRAY[E'1', E'2', E'3', E'4'])::integer[]))
  ORDER BY "_0"."id" ASC NULLS LAST
) AS "__s";
