SELECT id, rating, status FROM article ORDER BY id
