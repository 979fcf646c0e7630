SELECT count(*)::int AS authors FROM author
