-- variables: {"query":{},"session":{},"synthetic":["2","2"],"cursor":"1"}
SELECT "__subs"."result_id", "__fld_resp"."root" AS "result", "__fld_resp"."cursor" AS "cursor"
FROM unnest(($1)::json[]) WITH ORDINALITY AS "__subs"("result_vars", "result_id")
LEFT OUTER JOIN LATERAL (
  SELECT coalesce(json_agg("__s".root ORDER BY "__s"."__order_0" ASC NULLS LAST), '[]') AS root, ((array_agg("__s"."__order_0" ORDER BY "__s"."__order_0" DESC))[1])::text AS cursor
  FROM (
    SELECT json_build_object(E'id', "_1"."id", E'title', "_1"."title", E'author', "_2".root) AS root, "_1"."__order_0"
    FROM (
      SELECT "_0".*, "_0"."id" AS "__order_0"
      FROM "public"."article" AS "_0"
      WHERE (("_0"."rating" >= (("__subs"."result_vars" #>> '{synthetic,0}'))::integer) AND ("_0"."id" > (("__subs"."result_vars" #>> '{cursor}'))::integer))
      ORDER BY "_0"."id" ASC NULLS LAST
      LIMIT (("__subs"."result_vars" #>> '{synthetic,1}'))::bigint
    ) AS "_1"
    LEFT JOIN LATERAL (
      SELECT json_build_object(E'name', "_3"."name") AS root
      FROM "public"."author" AS "_3"
      WHERE ("_1"."author_id" = "_3"."id")
      LIMIT 1
    ) AS "_2" ON true
  ) AS "__s"
) AS "__fld_resp" ON true;
