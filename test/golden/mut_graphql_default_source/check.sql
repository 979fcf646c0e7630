SELECT item_id, item_name, unit_price, in_stock FROM shop.product_item ORDER BY item_id
