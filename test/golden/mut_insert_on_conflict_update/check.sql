SELECT id, name FROM author ORDER BY id
