-- author
SELECT coalesce(json_agg("__s".root ORDER BY "__s"."__order_0" ASC NULLS LAST), '[]') AS root
FROM (
  SELECT json_build_object(E'id', "_0"."id", E'name', "_0"."name", E'email', CASE WHEN ("_0"."balance" > (E'10')::numeric(10,2)) THEN "_0"."email" ELSE NULL END, E'balance', CASE WHEN ("_0"."balance" > (E'10')::numeric(10,2)) THEN "_0"."balance" ELSE NULL END) AS root, "_0"."id" AS "__order_0"
  FROM "public"."author" AS "_0"
  WHERE (("_0"."is_active" = (E'true')::boolean) OR ("_0"."balance" > (E'10')::numeric(10,2)))
  ORDER BY "_0"."id" ASC NULLS LAST
) AS "__s";
