-- article_status
SELECT coalesce(json_agg("__s".root ORDER BY "__s"."__order_0" ASC NULLS LAST), '[]') AS root
FROM (
  SELECT json_build_object(E'value', "_0"."value", E'comment', "_0"."comment") AS root, "_0"."value" AS "__order_0"
  FROM "public"."article_status" AS "_0"
  WHERE true
  ORDER BY "_0"."value" ASC NULLS LAST
) AS "__s";
