-- author
SELECT coalesce(json_agg("__s".root ORDER BY "__s"."__order_0" ASC NULLS LAST, "__s"."__order_1" ASC NULLS LAST), '[]') AS root
FROM (
  SELECT DISTINCT ON (CASE WHEN ("_0"."balance" > (E'10')::numeric(10,2)) THEN "_0"."email" ELSE NULL END) json_build_object(E'id', "_0"."id", E'email', CASE WHEN ("_0"."balance" > (E'10')::numeric(10,2)) THEN "_0"."email" ELSE NULL END) AS root, CASE WHEN ("_0"."balance" > (E'10')::numeric(10,2)) THEN "_0"."email" ELSE NULL END AS "__order_0", "_0"."id" AS "__order_1"
  FROM "public"."author" AS "_0"
  WHERE (("_0"."is_active" = (E'true')::boolean) OR ("_0"."balance" > (E'10')::numeric(10,2)))
  ORDER BY CASE WHEN ("_0"."balance" > (E'10')::numeric(10,2)) THEN "_0"."email" ELSE NULL END ASC NULLS LAST, "_0"."id" ASC NULLS LAST
) AS "__s";
