-- unrated
SELECT coalesce(json_agg("__s".root ORDER BY "__s"."__order_0" ASC NULLS LAST), '[]') AS root
FROM (
  SELECT json_build_object(E'id', "_0"."id") AS root, "_0"."id" AS "__order_0"
  FROM "public"."article" AS "_0"
  WHERE ("_0"."rating" IS NULL)
  ORDER BY "_0"."id" ASC NULLS LAST
) AS "__s";

-- with_bio
SELECT coalesce(json_agg("__s".root ORDER BY "__s"."__order_0" ASC NULLS LAST), '[]') AS root
FROM (
  SELECT json_build_object(E'name', "_0"."name") AS root, "_0"."id" AS "__order_0"
  FROM "public"."author" AS "_0"
  WHERE ("_0"."bio" IS NOT NULL)
  ORDER BY "_0"."id" ASC NULLS LAST
) AS "__s";
