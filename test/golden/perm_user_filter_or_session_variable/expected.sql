-- author
SELECT coalesce(json_agg("__s".root ORDER BY "__s"."__order_0" ASC NULLS LAST), '[]') AS root
FROM (
  SELECT json_build_object(E'id', "_1"."id", E'name', "_1"."name", E'is_active', "_1"."is_active", E'display_name', "public"."author_display_name"("_1"."__row")) AS root, "_1"."__order_0"
  FROM (
    SELECT "_0".*, "_0" AS "__row", "_0"."id" AS "__order_0"
    FROM "public"."author" AS "_0"
    WHERE (("_0"."is_active" = (E'true')::boolean) OR ("_0"."id" = (($1)::json->>E'x-service-user-id')::integer))
    ORDER BY "_0"."id" ASC NULLS LAST
  ) AS "_1"
) AS "__s";
