-- ilike
SELECT coalesce(json_agg("__s".root), '[]') AS root
FROM (
  SELECT json_build_object(E'name', "_0"."name") AS root
  FROM "public"."author" AS "_0"
  WHERE ("_0"."name" ILIKE (E'a%')::text)
) AS "__s";

-- nilike
SELECT coalesce(json_agg("__s".root ORDER BY "__s"."__order_0" ASC NULLS LAST), '[]') AS root
FROM (
  SELECT json_build_object(E'name', "_0"."name") AS root, "_0"."id" AS "__order_0"
  FROM "public"."author" AS "_0"
  WHERE ("_0"."email" NOT ILIKE (E'%BOB%')::text)
  ORDER BY "_0"."id" ASC NULLS LAST
) AS "__s";
