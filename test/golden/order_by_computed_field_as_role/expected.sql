-- article
SELECT coalesce(json_agg("__s".root ORDER BY "__s"."__order_0" DESC NULLS FIRST, "__s"."__order_1" ASC NULLS LAST), '[]') AS root
FROM (
  SELECT json_build_object(E'id', "_1"."id", E'title_length', "public"."article_title_length"("_1"."__row")) AS root, "_1"."__order_0", "_1"."__order_1"
  FROM (
    SELECT "_0".*, "_0" AS "__row", "public"."article_title_length"("_0") AS "__order_0", "_0"."id" AS "__order_1"
    FROM "public"."article" AS "_0"
    WHERE (("_0"."status" = (E'published')::text) OR ("_0"."author_id" = (($1)::json->>E'x-service-user-id')::integer))
    ORDER BY "public"."article_title_length"("_0") DESC NULLS FIRST, "_0"."id" ASC NULLS LAST
  ) AS "_1"
) AS "__s";
