-- variables: {"query":{},"session":{},"synthetic":["2"],"cursor":"1.00"}
SELECT "__subs"."result_id", "__fld_resp"."root" AS "result", "__fld_resp"."cursor" AS "cursor"
FROM unnest(($1)::json[]) WITH ORDINALITY AS "__subs"("result_vars", "result_id")
LEFT OUTER JOIN LATERAL (
  SELECT coalesce(json_agg("__s".root ORDER BY "__s"."__order_0" ASC NULLS LAST), '[]') AS root, ((array_agg("__s"."__order_0" ORDER BY "__s"."__order_0" DESC))[1])::text AS cursor
  FROM (
    SELECT json_build_object(E'itemId', "_0"."item_id", E'itemName', "_0"."item_name", E'unitPrice', "_0"."unit_price") AS root, "_0"."unit_price" AS "__order_0"
    FROM "shop"."product_item" AS "_0"
    WHERE (("_0"."in_stock" = (E'true')::boolean) AND ("_0"."unit_price" > (("__subs"."result_vars" #>> '{cursor}'))::numeric(10,2)))
    ORDER BY "_0"."unit_price" ASC NULLS LAST
    LIMIT (("__subs"."result_vars" #>> '{synthetic,0}'))::bigint
  ) AS "__s"
) AS "__fld_resp" ON true;
