-- quoted
SELECT coalesce(json_agg("__s".root), '[]') AS root
FROM (
  SELECT json_build_object(E'name', "_0"."name", E'bio', "_0"."bio") AS root
  FROM "public"."author" AS "_0"
  WHERE ("_0"."bio" = (E'Poet; writes "verse"')::text)
) AS "__s";

-- backslash
SELECT coalesce(json_agg("__s".root), '[]') AS root
FROM (
  SELECT json_build_object(E'name', "_0"."name", E'bio', "_0"."bio") AS root
  FROM "public"."author" AS "_0"
  WHERE ("_0"."bio" = (E'Backslash \\ fan')::text)
) AS "__s";
