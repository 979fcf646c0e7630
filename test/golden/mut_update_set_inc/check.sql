SELECT id, status, rating FROM article WHERE author_id = 1 ORDER BY id
