SELECT id, title, author_id, status, rating FROM article WHERE id > 8 ORDER BY id
