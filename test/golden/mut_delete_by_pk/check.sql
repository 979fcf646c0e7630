SELECT (SELECT count(*) FROM article)::int AS articles, (SELECT count(*) FROM comment)::int AS comments
