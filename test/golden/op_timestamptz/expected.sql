-- author
SELECT coalesce(json_agg("__s".root ORDER BY "__s"."__order_0" ASC NULLS LAST), '[]') AS root
FROM (
  SELECT json_build_object(E'name', "_0"."name", E'joined_at', "_0"."joined_at") AS root, "_0"."joined_at" AS "__order_0"
  FROM "public"."author" AS "_0"
  WHERE (("_0"."joined_at" >= (E'2021-01-01T00:00:00Z')::timestamp with time zone) AND ("_0"."joined_at" < (E'2023-01-01T00:00:00+01:00')::timestamp with time zone))
  ORDER BY "_0"."joined_at" ASC NULLS LAST
) AS "__s";
