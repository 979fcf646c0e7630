-- author
SELECT coalesce(json_agg("__s".root ORDER BY "__s"."__order_0" DESC NULLS FIRST, "__s"."__order_1" ASC NULLS LAST), '[]') AS root
FROM (
  SELECT json_build_object(E'name', "_2"."name", E'comments_aggregate', "_3".root) AS root, "_2"."__order_0", "_2"."__order_1"
  FROM (
    SELECT "_0".*, (
      SELECT count(*)
      FROM "public"."comment" AS "_1"
      WHERE (("_0"."id" = "_1"."commenter_id") AND true)
    ) AS "__order_0", "_0"."id" AS "__order_1"
    FROM "public"."author" AS "_0"
    WHERE true
    ORDER BY (
      SELECT count(*)
      FROM "public"."comment" AS "_1"
      WHERE (("_0"."id" = "_1"."commenter_id") AND true)
    ) DESC NULLS FIRST, "_0"."id" ASC NULLS LAST
  ) AS "_2"
  LEFT JOIN LATERAL (
    SELECT json_build_object(E'aggregate', json_build_object(E'count', count(*))) AS root
    FROM (
      SELECT "_4".*
      FROM "public"."comment" AS "_4"
      WHERE ("_2"."id" = "_4"."commenter_id")
    ) AS "_5"
  ) AS "_3" ON true
) AS "__s";
