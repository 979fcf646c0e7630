SELECT id, title, author_id, status FROM article WHERE id = 9
