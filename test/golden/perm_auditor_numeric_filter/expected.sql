-- author
SELECT coalesce(json_agg("__s".root ORDER BY "__s"."__order_0" DESC NULLS FIRST), '[]') AS root
FROM (
  SELECT json_build_object(E'name', "_0"."name", E'balance', "_0"."balance") AS root, "_0"."balance" AS "__order_0"
  FROM "public"."author" AS "_0"
  WHERE ("_0"."balance" > (E'10')::numeric(10,2))
  ORDER BY "_0"."balance" DESC NULLS FIRST
) AS "__s";

-- article
SELECT coalesce(json_agg("__s".root ORDER BY "__s"."__order_0" ASC NULLS LAST), '[]') AS root
FROM (
  SELECT json_build_object(E'id', "_0"."id", E'rating', "_0"."rating", E'body', "_0"."body") AS root, "_0"."id" AS "__order_0"
  FROM "public"."article" AS "_0"
  WHERE ("_0"."rating" >= (E'7')::integer)
  ORDER BY "_0"."id" ASC NULLS LAST
) AS "__s";
