-- author_aggregate
SELECT json_build_object(E'aggregate', json_build_object(E'count', count(*)), E'nodes', (
  SELECT coalesce(json_agg("__s".root ORDER BY "__s"."__order_0" ASC NULLS LAST), '[]') AS root
  FROM (
    SELECT json_build_object(E'id', "_2"."id") AS root, "_2"."id" AS "__order_0"
    FROM "public"."author" AS "_2"
    WHERE ("_2"."is_active" = (E'true')::boolean)
    ORDER BY "_2"."id" ASC NULLS LAST
    LIMIT 2
  ) AS "__s"
)) AS root
FROM (
  SELECT "_0".*, "_0"."id" AS "__order_0"
  FROM "public"."author" AS "_0"
  WHERE ("_0"."is_active" = (E'true')::boolean)
  ORDER BY "_0"."id" ASC NULLS LAST
) AS "_1" ;
