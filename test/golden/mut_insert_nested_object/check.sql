SELECT r.title, a.name FROM article r JOIN author a ON a.id = r.author_id WHERE a.name = 'Fay'
