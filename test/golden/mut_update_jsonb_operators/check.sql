SELECT id, profile FROM author WHERE id <= 3 ORDER BY id
