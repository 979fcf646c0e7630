SELECT id, title FROM article WHERE author_id = 3 ORDER BY id
