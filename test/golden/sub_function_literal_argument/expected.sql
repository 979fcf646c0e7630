-- variables: {"query":{},"session":{},"synthetic":["engine"]}
SELECT "__subs"."result_id", "__fld_resp"."root" AS "result"
FROM unnest(($1)::json[]) WITH ORDINALITY AS "__subs"("result_vars", "result_id")
LEFT OUTER JOIN LATERAL (
  SELECT coalesce(json_agg("__s".root ORDER BY "__s"."__order_0" ASC NULLS LAST), '[]') AS root
  FROM (
    SELECT json_build_object(E'id', "_1"."id", E'title', "_1"."title", E'author', "_2".root) AS root, "_1"."__order_0"
    FROM (
      SELECT "_0".*, "_0"."id" AS "__order_0"
      FROM "public"."search_articles"((("__subs"."result_vars" #>> '{synthetic,0}'))::text) AS "_0"
      WHERE true
      ORDER BY "_0"."id" ASC NULLS LAST
    ) AS "_1"
    LEFT JOIN LATERAL (
      SELECT json_build_object(E'name', "_3"."name") AS root
      FROM "public"."author" AS "_3"
      WHERE ("_1"."author_id" = "_3"."id")
      LIMIT 1
    ) AS "_2" ON true
  ) AS "__s"
) AS "__fld_resp" ON true;
