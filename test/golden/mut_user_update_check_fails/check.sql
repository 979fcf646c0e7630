SELECT id, rating, updated_by FROM article WHERE id = 1
