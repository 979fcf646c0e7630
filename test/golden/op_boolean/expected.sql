-- author
SELECT coalesce(json_agg("__s".root), '[]') AS root
FROM (
  SELECT json_build_object(E'name', "_0"."name", E'is_active', "_0"."is_active") AS root
  FROM "public"."author" AS "_0"
  WHERE ("_0"."is_active" = (E'false')::boolean)
) AS "__s";
