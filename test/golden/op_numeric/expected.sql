-- author
SELECT coalesce(json_agg("__s".root ORDER BY "__s"."__order_0" DESC NULLS FIRST), '[]') AS root
FROM (
  SELECT json_build_object(E'name', "_0"."name", E'balance', "_0"."balance") AS root, "_0"."balance" AS "__order_0"
  FROM "public"."author" AS "_0"
  WHERE (("_0"."balance" > (E'10.5')::numeric(10,2)) AND ("_0"."balance" < (E'200')::numeric(10,2)))
  ORDER BY "_0"."balance" DESC NULLS FIRST
) AS "__s";
