-- article
SELECT coalesce(json_agg("__s".root ORDER BY "__s"."__order_0" ASC NULLS LAST), '[]') AS root
FROM (
  SELECT json_build_object(E'id', "_2"."id", E'status', "_2"."status", E'title_length', "public"."article_title_length"("_2"."__row"), E'updated_by', "_2"."updated_by") AS root, "_2"."__order_0"
  FROM (
    SELECT "_0".*, "_0" AS "__row", "_0"."id" AS "__order_0"
    FROM "public"."article" AS "_0"
    WHERE EXISTS (
      SELECT 1
      FROM "public"."author" AS "_1"
      WHERE (("_1"."id" = (($1)::json->>E'x-service-user-id')::integer) AND ("_1"."is_active" = (E'true')::boolean))
    )
    ORDER BY "_0"."id" ASC NULLS LAST
    LIMIT (E'3')::bigint
  ) AS "_2"
) AS "__s";
