-- author
SELECT coalesce(json_agg("__s".root ORDER BY "__s"."__order_0" ASC NULLS LAST), '[]') AS root
FROM (
  SELECT json_build_object(E'id', "_0"."id", E'name', "_0"."name", E'bio', "_0"."bio") AS root, "_0"."id" AS "__order_0"
  FROM "public"."author" AS "_0"
  WHERE true
  ORDER BY "_0"."id" ASC NULLS LAST
  LIMIT (E'2')::bigint
) AS "__s";
