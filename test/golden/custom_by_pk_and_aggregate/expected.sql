-- remark
SELECT json_build_object(E'text', "_1"."body", E'commenter', "_2".root) AS root
FROM (
  SELECT "_0".*
  FROM "public"."comment" AS "_0"
  WHERE ("_0"."id" = (E'6')::integer)
  LIMIT 1
) AS "_1"
LEFT JOIN LATERAL (
  SELECT json_build_object(E'name', "_3"."name") AS root
  FROM "public"."author" AS "_3"
  WHERE ("_1"."commenter_id" = "_3"."id")
  LIMIT 1
) AS "_2" ON true;

-- remarks_summary
SELECT json_build_object(E'aggregate', json_build_object(E'count', count(*), E'max', json_build_object(E'posted_at', max("_1"."created_at")))) AS root
FROM (
  SELECT "_0".*
  FROM "public"."comment" AS "_0"
  WHERE ("_0"."commenter_id" = (E'2')::integer)
) AS "_1" ;
