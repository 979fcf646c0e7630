-- article_by_pk
SELECT json_build_object(E'id', "_0"."id", E'title', "_0"."title", E'status', "_0"."status", E'published_at', "_0"."published_at") AS root
FROM "public"."article" AS "_0"
WHERE ("_0"."id" = ($1)::integer)
LIMIT 1;
