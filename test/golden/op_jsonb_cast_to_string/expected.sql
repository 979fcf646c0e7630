-- author
SELECT coalesce(json_agg("__s".root), '[]') AS root
FROM (
  SELECT json_build_object(E'name', "_0"."name") AS root
  FROM "public"."author" AS "_0"
  WHERE (("_0"."profile")::text ILIKE (E'%poetry%')::text)
) AS "__s";
