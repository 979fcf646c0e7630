-- author
SELECT coalesce(json_agg("__s".root ORDER BY "__s"."__order_0" ASC NULLS LAST, "__s"."__order_1" ASC NULLS LAST), '[]') AS root
FROM (
  SELECT json_build_object(E'id', "_1"."id", E'name', "_1"."name", E'display_name', CASE WHEN ("_1"."balance" > (E'10')::numeric(10,2)) THEN "public"."author_display_name"("_1"."__row") ELSE NULL END) AS root, "_1"."__order_0", "_1"."__order_1"
  FROM (
    SELECT "_0".*, "_0" AS "__row", CASE WHEN ("_0"."balance" > (E'10')::numeric(10,2)) THEN "public"."author_display_name"("_0") ELSE NULL END AS "__order_0", "_0"."id" AS "__order_1"
    FROM "public"."author" AS "_0"
    WHERE ((("_0"."is_active" = (E'true')::boolean) OR ("_0"."balance" > (E'10')::numeric(10,2))) AND (CASE WHEN ("_0"."balance" > (E'10')::numeric(10,2)) THEN "public"."author_display_name"("_0") ELSE NULL END ILIKE (E'%@example.com>')::text))
    ORDER BY CASE WHEN ("_0"."balance" > (E'10')::numeric(10,2)) THEN "public"."author_display_name"("_0") ELSE NULL END ASC NULLS LAST, "_0"."id" ASC NULLS LAST
  ) AS "_1"
) AS "__s";
