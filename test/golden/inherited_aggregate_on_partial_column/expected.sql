-- author_aggregate
SELECT json_build_object(E'aggregate', json_build_object(E'count', count(*), E'max', json_build_object(E'email', max(CASE WHEN ("_1"."balance" > (E'10')::numeric(10,2)) THEN "_1"."email" ELSE NULL END), E'balance', max(CASE WHEN ("_1"."balance" > (E'10')::numeric(10,2)) THEN "_1"."balance" ELSE NULL END)))) AS root
FROM (
  SELECT "_0".*
  FROM "public"."author" AS "_0"
  WHERE (("_0"."is_active" = (E'true')::boolean) OR ("_0"."balance" > (E'10')::numeric(10,2)))
) AS "_1" ;
