-- variables: {"query":{},"session":{},"synthetic":["%a%"]}
SELECT "__subs"."result_id", "__fld_resp"."root" AS "result"
FROM unnest(($1)::json[]) WITH ORDINALITY AS "__subs"("result_vars", "result_id")
LEFT OUTER JOIN LATERAL (
  SELECT json_build_object(E'aggregate', json_build_object(E'count', count(*)), E'nodes', coalesce(json_agg(json_build_object(E'id', "_1"."id")), '[]')) AS root
  FROM (
    SELECT "_0".*
    FROM "public"."article" AS "_0"
    WHERE ("_0"."title" LIKE (("__subs"."result_vars" #>> '{synthetic,0}'))::text)
  ) AS "_1"
) AS "__fld_resp" ON true;
