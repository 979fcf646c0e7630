-- store.shopProductItem
SELECT coalesce(json_agg("__s".root ORDER BY "__s"."__order_0" DESC NULLS FIRST), '[]') AS root
FROM (
  SELECT json_build_object(E'itemName', "_0"."item_name", E'unitPrice', "_0"."unit_price") AS root, "_0"."unit_price" AS "__order_0"
  FROM "shop"."product_item" AS "_0"
  WHERE (("_0"."in_stock" = (E'true')::boolean) AND ("_0"."item_name" ILIKE (E'%n%')::text))
  ORDER BY "_0"."unit_price" DESC NULLS FIRST
) AS "__s";
