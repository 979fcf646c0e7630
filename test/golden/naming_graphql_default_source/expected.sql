-- store.shopProductItem
SELECT coalesce(json_agg("__s".root ORDER BY "__s"."__order_0" ASC NULLS LAST), '[]') AS root
FROM (
  SELECT json_build_object(E'__typename', E'ShopProductItem', E'itemId', "_0"."item_id", E'itemName', "_0"."item_name", E'unitPrice', "_0"."unit_price", E'inStock', "_0"."in_stock") AS root, "_0"."item_id" AS "__order_0"
  FROM "shop"."product_item" AS "_0"
  WHERE true
  ORDER BY "_0"."item_id" ASC NULLS LAST
) AS "__s";
