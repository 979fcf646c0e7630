-- variables: {"query":{"from":100},"session":{},"synthetic":["10"],"cursor":"100"}
SELECT "__subs"."result_id", "__fld_resp"."root" AS "result", "__fld_resp"."cursor" AS "cursor"
FROM unnest(($1)::json[]) WITH ORDINALITY AS "__subs"("result_vars", "result_id")
LEFT OUTER JOIN LATERAL (
  SELECT coalesce(json_agg("__s".root ORDER BY "__s"."__order_0" DESC NULLS FIRST), '[]') AS root, ((array_agg("__s"."__order_0" ORDER BY "__s"."__order_0" ASC))[1])::text AS cursor
  FROM (
    SELECT json_build_object(E'id', "_0"."id", E'title', "_0"."title", E'rating', "_0"."rating") AS root, "_0"."id" AS "__order_0"
    FROM "public"."article" AS "_0"
    WHERE ((("_0"."status" = (E'published')::text) AND (NOT ("_0"."rating" IS NULL)) AND EXISTS (
      SELECT 1
      FROM "public"."author" AS "_1"
      WHERE (("_0"."author_id" = "_1"."id") AND ("_1"."is_active" = (E'true')::boolean))
    )) AND ("_0"."id" < (("__subs"."result_vars" #>> '{cursor}'))::integer))
    ORDER BY "_0"."id" DESC NULLS FIRST
    LIMIT LEAST((("__subs"."result_vars" #>> '{synthetic,0}'))::bigint, 3)
  ) AS "__s"
) AS "__fld_resp" ON true;
