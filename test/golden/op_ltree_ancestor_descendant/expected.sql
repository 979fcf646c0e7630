-- in_europe
SELECT coalesce(json_agg("__s".root ORDER BY "__s"."__order_0" ASC NULLS LAST), '[]') AS root
FROM (
  SELECT json_build_object(E'name', "_0"."name", E'region', "_0"."region") AS root, "_0"."id" AS "__order_0"
  FROM "public"."author" AS "_0"
  WHERE ("_0"."region" <@ (E'europe')::ltree)
  ORDER BY "_0"."id" ASC NULLS LAST
) AS "__s";

-- above_soho
SELECT coalesce(json_agg("__s".root), '[]') AS root
FROM (
  SELECT json_build_object(E'name', "_0"."name") AS root
  FROM "public"."author" AS "_0"
  WHERE ("_0"."region" @> (E'europe.uk.london.soho')::ltree)
) AS "__s";
