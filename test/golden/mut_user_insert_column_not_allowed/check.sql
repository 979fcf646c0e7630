SELECT count(*)::int AS articles FROM article
