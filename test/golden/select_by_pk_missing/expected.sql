-- article_by_pk
SELECT json_build_object(E'id', "_0"."id", E'title', "_0"."title") AS root
FROM "public"."article" AS "_0"
WHERE ("_0"."id" = (E'999')::integer)
LIMIT 1;
