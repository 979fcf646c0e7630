SELECT id, article_id, commenter_id, body FROM comment WHERE id = 9
