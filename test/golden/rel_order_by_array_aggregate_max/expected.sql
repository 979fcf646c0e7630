-- author
SELECT coalesce(json_agg("__s".root ORDER BY "__s"."__order_0" DESC NULLS LAST), '[]') AS root
FROM (
  SELECT json_build_object(E'name', "_0"."name") AS root, (
    SELECT max("_1"."rating")
    FROM "public"."article" AS "_1"
    WHERE (("_0"."id" = "_1"."author_id") AND true)
  ) AS "__order_0"
  FROM "public"."author" AS "_0"
  WHERE true
  ORDER BY (
    SELECT max("_1"."rating")
    FROM "public"."article" AS "_1"
    WHERE (("_0"."id" = "_1"."author_id") AND true)
  ) DESC NULLS LAST
) AS "__s";
