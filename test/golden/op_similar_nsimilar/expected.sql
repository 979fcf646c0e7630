-- similar
SELECT coalesce(json_agg("__s".root ORDER BY "__s"."__order_0" ASC NULLS LAST), '[]') AS root
FROM (
  SELECT json_build_object(E'title', "_0"."title") AS root, "_0"."id" AS "__order_0"
  FROM "public"."article" AS "_0"
  WHERE ("_0"."title" SIMILAR TO (E'(Verse|Old)%')::text)
  ORDER BY "_0"."id" ASC NULLS LAST
) AS "__s";

-- nsimilar
SELECT coalesce(json_agg("__s".root ORDER BY "__s"."__order_0" ASC NULLS LAST), '[]') AS root
FROM (
  SELECT json_build_object(E'title', "_0"."title") AS root, "_0"."id" AS "__order_0"
  FROM "public"."article" AS "_0"
  WHERE ("_0"."title" NOT SIMILAR TO (E'%(Numbers|News)')::text)
  ORDER BY "_0"."id" ASC NULLS LAST
) AS "__s";
