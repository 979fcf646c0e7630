-- store.shopProductItemByPk
SELECT json_build_object(E'itemName', "_0"."item_name") AS root
FROM "shop"."product_item" AS "_0"
WHERE ("_0"."item_id" = (E'2')::integer)
LIMIT 1;

-- store.shopProductItemAggregate
SELECT json_build_object(E'aggregate', json_build_object(E'count', count(*), E'sum', json_build_object(E'unitPrice', sum("_1"."unit_price")))) AS root
FROM (
  SELECT "_0".*
  FROM "shop"."product_item" AS "_0"
  WHERE ("_0"."unit_price" > (E'5')::numeric(10,2))
) AS "_1" ;
