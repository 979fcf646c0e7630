-- article
SELECT coalesce(json_agg("__s".root ORDER BY "__s"."__order_0" DESC NULLS FIRST, "__s"."__order_1" ASC NULLS LAST, "__s"."__order_2" ASC NULLS LAST), '[]') AS root
FROM (
  SELECT json_build_object(E'id', "_2"."id", E'title_length', "public"."article_title_length"("_2"."__row"), E'author', "_3".root) AS root, "_2"."__order_0", "_2"."__order_1", "_2"."__order_2"
  FROM (
    SELECT "_0".*, "_0" AS "__row", "public"."author_display_name"("_1") AS "__order_0", "public"."article_title_length"("_0") AS "__order_1", "_0"."id" AS "__order_2"
    FROM "public"."article" AS "_0"
    LEFT JOIN LATERAL (
      SELECT *
      FROM "public"."author" AS "_1"
      WHERE (("_0"."author_id" = "_1"."id") AND true)
      LIMIT 1
    ) AS "_1" ON true
    WHERE true
    ORDER BY "public"."author_display_name"("_1") DESC NULLS FIRST, "public"."article_title_length"("_0") ASC NULLS LAST, "_0"."id" ASC NULLS LAST
    LIMIT (E'4')::bigint
  ) AS "_2"
  LEFT JOIN LATERAL (
    SELECT json_build_object(E'display_name', "public"."author_display_name"("_5"."__row")) AS root
    FROM (
      SELECT "_4".*, "_4" AS "__row"
      FROM "public"."author" AS "_4"
      WHERE ("_2"."author_id" = "_4"."id")
      LIMIT 1
    ) AS "_5"
  ) AS "_3" ON true
) AS "__s";
