SELECT a.name, r.title FROM author a JOIN article r ON r.author_id = a.id WHERE a.name = 'Eve' ORDER BY r.id
