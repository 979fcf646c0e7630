-- ancestor_any
SELECT coalesce(json_agg("__s".root), '[]') AS root
FROM (
  SELECT json_build_object(E'name', "_0"."name") AS root
  FROM "public"."author" AS "_0"
  WHERE ("_0"."region" @> (ARRAY[E'europe.fr.paris.left_bank', E'asia.jp'])::ltree[])
) AS "__s";

-- descendant_any
SELECT coalesce(json_agg("__s".root ORDER BY "__s"."__order_0" ASC NULLS LAST), '[]') AS root
FROM (
  SELECT json_build_object(E'name', "_0"."name") AS root, "_0"."id" AS "__order_0"
  FROM "public"."author" AS "_0"
  WHERE ("_0"."region" <@ (ARRAY[E'america', E'europe.fr'])::ltree[])
  ORDER BY "_0"."id" ASC NULLS LAST
) AS "__s";
