-- remarks
SELECT coalesce(json_agg("__s".root ORDER BY "__s"."__order_0" DESC NULLS FIRST), '[]') AS root
FROM (
  SELECT json_build_object(E'__typename', E'remark', E'id', "_0"."id", E'text', "_0"."body", E'posted_at', "_0"."created_at", E'commenterId', "_0"."commenter_id") AS root, "_0"."created_at" AS "__order_0"
  FROM "public"."comment" AS "_0"
  WHERE ("_0"."body" ILIKE (E'%s%')::text)
  ORDER BY "_0"."created_at" DESC NULLS FIRST
) AS "__s";
