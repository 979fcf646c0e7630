-- article
SELECT coalesce(json_agg("__s".root), '[]') AS root
FROM (
  SELECT json_build_object(E'id', "_0"."id") AS root
  FROM "public"."article" AS "_0"
  WHERE EXISTS (
    SELECT 1
    FROM "public"."author" AS "_1"
    WHERE (("_1"."id" = (($1)::json->>E'x-service-user-id')::integer) AND ("_1"."is_active" = (E'true')::boolean))
  )
) AS "__s";

-- author
SELECT coalesce(json_agg("__s".root), '[]') AS root
FROM (
  SELECT json_build_object(E'name', "_0"."name", E'email', "_0"."email") AS root
  FROM "public"."author" AS "_0"
  WHERE ("_0"."id" = (($1)::json->>E'x-service-user-id')::integer)
) AS "__s";
