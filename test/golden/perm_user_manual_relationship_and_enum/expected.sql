-- author_by_pk
SELECT json_build_object(E'name', "_4"."name", E'stats', "_5".root) AS root FROM (SELECT "_3".* FROM "public"."author" AS "_3"  WHERE ((("_3"."is_active" = (E'true')::boolean) OR ("_3"."id" = (($1)::json->>E'x-service-user-id')::integer)) AND ("_3"."id" = (E'1')::integer)) LIMIT 1) AS "_4" LEFT JOIN LATERAL (SELECT json_build_object(E'article_count', "_6"."article_count") AS root FROM "public"."author_stats" AS "_6"  WHERE ("_4"."id" = "_6"."author_id") LIMIT 1) AS "_5" ON true;

-- article_status
SELECT coalesce(json_agg("__s".root ORDER BY "__s"."__order_0" ASC NULLS LAST), '[]') AS root FROM (SELECT json_build_object(E'value', "_0"."value") AS root, "_0"."value" AS "__order_0" FROM "public"."article_status" AS "_0"  WHERE true ORDER BY "_0"."value" ASC NULLS LAST) AS "__s";
