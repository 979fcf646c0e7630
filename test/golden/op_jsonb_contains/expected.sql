-- contains
SELECT coalesce(json_agg("__s".root ORDER BY "__s"."__order_0" ASC NULLS LAST), '[]') AS root
FROM (
  SELECT json_build_object(E'name', "_0"."name") AS root, "_0"."id" AS "__order_0"
  FROM "public"."author" AS "_0"
  WHERE ("_0"."profile" @> (E'{"langs":["en"]}')::jsonb)
  ORDER BY "_0"."id" ASC NULLS LAST
) AS "__s";

-- contained_in
SELECT coalesce(json_agg("__s".root), '[]') AS root
FROM (
  SELECT json_build_object(E'title', "_0"."title") AS root
  FROM "public"."article" AS "_0"
  WHERE ("_0"."meta" <@ (E'{"words":50,"extra":true}')::jsonb)
) AS "__s";
