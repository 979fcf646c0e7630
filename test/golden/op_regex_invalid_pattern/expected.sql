-- article
SELECT coalesce(json_agg("__s".root), '[]') AS root
FROM (
  SELECT json_build_object(E'id', "_0"."id") AS root
  FROM "public"."article" AS "_0"
  WHERE ("_0"."title" ~ (E'(')::text)
) AS "__s";
