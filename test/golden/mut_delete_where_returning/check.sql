SELECT id, article_id FROM comment ORDER BY id
