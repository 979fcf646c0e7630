-- article
SELECT coalesce(json_agg("__s".root ORDER BY "__s"."__order_0" ASC NULLS LAST), '[]') AS root
FROM (
  SELECT json_build_object(E'title', "_1"."title", E'title_length', "public"."article_title_length"("_1"."__row")) AS root, "_1"."__order_0"
  FROM (
    SELECT "_0".*, "_0" AS "__row", "_0"."id" AS "__order_0"
    FROM "public"."article" AS "_0"
    WHERE ("public"."article_title_length"("_0") > (E'15')::integer)
    ORDER BY "_0"."id" ASC NULLS LAST
  ) AS "_1"
) AS "__s";
