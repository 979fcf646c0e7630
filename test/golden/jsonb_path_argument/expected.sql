-- author
SELECT coalesce(json_agg("__s".root ORDER BY "__s"."__order_0" ASC NULLS LAST), '[]') AS root
FROM (
  SELECT json_build_object(E'name', "_0"."name", E'site', ("_0"."profile" #> (ARRAY[E'links', E'site'])::text[]), E'first_lang', ("_0"."profile" #> (ARRAY[E'langs', E'0'])::text[])) AS root, "_0"."id" AS "__order_0"
  FROM "public"."author" AS "_0"
  WHERE true
  ORDER BY "_0"."id" ASC NULLS LAST
) AS "__s";
