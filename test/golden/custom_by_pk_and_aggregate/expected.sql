-- remark
SELECT json_build_object(E'text', "_4"."body", E'commenter', "_5".root) AS root FROM (SELECT "_3".* FROM "public"."comment" AS "_3"  WHERE ("_3"."id" = (E'6')::integer) LIMIT 1) AS "_4" LEFT JOIN LATERAL (SELECT json_build_object(E'name', "_6"."name") AS root FROM "public"."author" AS "_6"  WHERE ("_4"."commenter_id" = "_6"."id") LIMIT 1) AS "_5" ON true;

-- remarks_summary
SELECT json_build_object(E'aggregate', json_build_object(E'count', count(*), E'max', json_build_object(E'posted_at', max("_1"."created_at")))) AS root FROM (SELECT "_0".* FROM "public"."comment" AS "_0"  WHERE ("_0"."commenter_id" = (E'2')::integer)) AS "_1" ;
