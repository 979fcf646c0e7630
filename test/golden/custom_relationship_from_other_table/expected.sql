-- article_by_pk
SELECT json_build_object(E'title', "_1"."title", E'comments', "_2".root, E'comments_aggregate', "_4".root) AS root
FROM (
  SELECT "_0".*
  FROM "public"."article" AS "_0"
  WHERE ("_0"."id" = (E'1')::integer)
  LIMIT 1
) AS "_1"
LEFT JOIN LATERAL (
  SELECT coalesce(json_agg("__s".root ORDER BY "__s"."__order_0" ASC NULLS LAST), '[]') AS root
  FROM (
    SELECT json_build_object(E'text', "_3"."body", E'posted_at', "_3"."created_at") AS root, "_3"."created_at" AS "__order_0"
    FROM "public"."comment" AS "_3"
    WHERE ("_1"."id" = "_3"."article_id")
    ORDER BY "_3"."created_at" ASC NULLS LAST
  ) AS "__s"
) AS "_2" ON true
LEFT JOIN LATERAL (
  SELECT json_build_object(E'aggregate', json_build_object(E'count', count(*))) AS root
  FROM (
    SELECT "_5".*
    FROM "public"."comment" AS "_5"
    WHERE ("_1"."id" = "_5"."article_id")
  ) AS "_6"
) AS "_4" ON true;
