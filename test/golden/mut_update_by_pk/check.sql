SELECT id, title, body FROM article WHERE id = 4
