SELECT id, name, email FROM author ORDER BY id
