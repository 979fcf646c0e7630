-- like
SELECT coalesce(json_agg("__s".root ORDER BY "__s"."__order_0" ASC NULLS LAST), '[]') AS root
FROM (
  SELECT json_build_object(E'id', "_0"."id", E'title', "_0"."title") AS root, "_0"."id" AS "__order_0"
  FROM "public"."article" AS "_0"
  WHERE ("_0"."title" LIKE (E'%Verse%')::text)
  ORDER BY "_0"."id" ASC NULLS LAST
) AS "__s";

-- nlike
SELECT coalesce(json_agg("__s".root ORDER BY "__s"."__order_0" ASC NULLS LAST), '[]') AS root
FROM (
  SELECT json_build_object(E'id', "_0"."id", E'title', "_0"."title") AS root, "_0"."id" AS "__order_0"
  FROM "public"."article" AS "_0"
  WHERE ("_0"."title" NOT LIKE (E'%e%')::text)
  ORDER BY "_0"."id" ASC NULLS LAST
) AS "__s";

-- percent
SELECT coalesce(json_agg("__s".root), '[]') AS root
FROM (
  SELECT json_build_object(E'id', "_0"."id", E'body', "_0"."body") AS root
  FROM "public"."article" AS "_0"
  WHERE ("_0"."body" LIKE (E'100\\%%')::text)
) AS "__s";
