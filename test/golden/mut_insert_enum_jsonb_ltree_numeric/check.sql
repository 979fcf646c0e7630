SELECT name, profile, region::text, balance, joined_at::text FROM author WHERE id = 5
