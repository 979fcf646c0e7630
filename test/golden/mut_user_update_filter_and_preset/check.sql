SELECT id, body, updated_by FROM article WHERE body = 'edited' OR updated_by IS NOT NULL ORDER BY id
