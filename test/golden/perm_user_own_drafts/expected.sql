-- article
SELECT coalesce(json_agg("__s".root ORDER BY "__s"."__order_0" ASC NULLS LAST), '[]') AS root
FROM (
  SELECT json_build_object(E'id', "_0"."id", E'title', "_0"."title", E'status', "_0"."status") AS root, "_0"."id" AS "__order_0"
  FROM "public"."article" AS "_0"
  WHERE (("_0"."status" = (E'published')::text) OR ("_0"."author_id" = (($1)::json->>E'x-service-user-id')::integer))
  ORDER BY "_0"."id" ASC NULLS LAST
) AS "__s";
