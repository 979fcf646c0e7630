-- variables: {"query":{"topic":{"topics":["travel"]},"ids":[1,2,3,4,5,6,7,8]},"session":{},"synthetic":[]}
SELECT "__subs"."result_id", "__fld_resp"."root" AS "result"
FROM unnest(($1)::json[]) WITH ORDINALITY AS "__subs"("result_vars", "result_id")
LEFT OUTER JOIN LATERAL (
  SELECT coalesce(json_agg("__s".root ORDER BY "__s"."__order_0" ASC NULLS LAST), '[]') AS root
  FROM (
    SELECT json_build_object(E'id', "_0"."id", E'title', "_0"."title", E'meta', "_0"."meta") AS root, "_0"."id" AS "__order_0"
    FROM "public"."article" AS "_0"
    WHERE (("_0"."meta" @> (coalesce("__subs"."result_vars" #> '{query,topic}', 'null'))::jsonb) AND ("_0"."id" = ANY(((CASE coalesce(json_typeof(("__subs"."result_vars" #> '{query,ids}')), 'null') WHEN 'array' THEN ARRAY(
      SELECT json_array_elements_text(("__subs"."result_vars" #> '{query,ids}'))
    ) WHEN 'null' THEN NULL ELSE ARRAY[("__subs"."result_vars" #> '{query,ids}') #>> '{}'] END))::integer[])))
    ORDER BY "_0"."id" ASC NULLS LAST
  ) AS "__s"
) AS "__fld_resp" ON true;
