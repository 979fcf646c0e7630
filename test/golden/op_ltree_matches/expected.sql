-- uk
SELECT coalesce(json_agg("__s".root ORDER BY "__s"."__order_0" ASC NULLS LAST), '[]') AS root
FROM (
  SELECT json_build_object(E'name', "_0"."name") AS root, "_0"."id" AS "__order_0"
  FROM "public"."author" AS "_0"
  WHERE ("_0"."region" ~ (E'europe.uk.*')::lquery)
  ORDER BY "_0"."id" ASC NULLS LAST
) AS "__s";

-- any
SELECT coalesce(json_agg("__s".root ORDER BY "__s"."__order_0" ASC NULLS LAST), '[]') AS root
FROM (
  SELECT json_build_object(E'name', "_0"."name") AS root, "_0"."id" AS "__order_0"
  FROM "public"."author" AS "_0"
  WHERE ("_0"."region" ? (ARRAY[E'*.paris', E'*.nyc'])::lquery[])
  ORDER BY "_0"."id" ASC NULLS LAST
) AS "__s";

-- fulltext
SELECT coalesce(json_agg("__s".root ORDER BY "__s"."__order_0" ASC NULLS LAST), '[]') AS root
FROM (
  SELECT json_build_object(E'name', "_0"."name") AS root, "_0"."id" AS "__order_0"
  FROM "public"."author" AS "_0"
  WHERE ("_0"."region" @ (E'leeds | nyc')::ltxtquery)
  ORDER BY "_0"."id" ASC NULLS LAST
) AS "__s";
