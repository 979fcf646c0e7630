SELECT id, title, meta, published_at::text FROM article WHERE id = 9
