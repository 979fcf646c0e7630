-- regex
SELECT coalesce(json_agg("__s".root ORDER BY "__s"."__order_0" ASC NULLS LAST), '[]') AS root
FROM (
  SELECT json_build_object(E'title', "_0"."title") AS root, "_0"."id" AS "__order_0"
  FROM "public"."article" AS "_0"
  WHERE ("_0"."title" ~ (E'^[A-D]')::text)
  ORDER BY "_0"."id" ASC NULLS LAST
) AS "__s";

-- iregex
SELECT coalesce(json_agg("__s".root ORDER BY "__s"."__order_0" ASC NULLS LAST), '[]') AS root
FROM (
  SELECT json_build_object(E'title', "_0"."title") AS root, "_0"."id" AS "__order_0"
  FROM "public"."article" AS "_0"
  WHERE ("_0"."title" ~* (E'^verse')::text)
  ORDER BY "_0"."id" ASC NULLS LAST
) AS "__s";

-- nregex
SELECT coalesce(json_agg("__s".root ORDER BY "__s"."__order_0" ASC NULLS LAST), '[]') AS root
FROM (
  SELECT json_build_object(E'title', "_0"."title") AS root, "_0"."id" AS "__order_0"
  FROM "public"."article" AS "_0"
  WHERE ("_0"."title" !~ (E'^[A-O]')::text)
  ORDER BY "_0"."id" ASC NULLS LAST
) AS "__s";

-- niregex
SELECT coalesce(json_agg("__s".root ORDER BY "__s"."__order_0" ASC NULLS LAST), '[]') AS root
FROM (
  SELECT json_build_object(E'title', "_0"."title") AS root, "_0"."id" AS "__order_0"
  FROM "public"."article" AS "_0"
  WHERE ("_0"."title" !~* (E'e')::text)
  ORDER BY "_0"."id" ASC NULLS LAST
) AS "__s";
