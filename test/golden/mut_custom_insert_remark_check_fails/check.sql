SELECT count(*)::int AS comments FROM comment
