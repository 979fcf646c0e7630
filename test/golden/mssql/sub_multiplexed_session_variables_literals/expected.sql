-- author
SELECT ISNULL((
  SELECT [t0].[id] AS [id], [t0].[name] AS [name]
  FROM [dbo].[author] AS [t0]
  WHERE (([t0].[id] = CAST(JSON_VALUE(@p1, N'$."x-service-user-id"') AS int))) AND ((([t0].[id] >= CAST(@p2 AS int))) AND (([t0].[name] IN (
    SELECT CAST([value] AS nvarchar(100))
    FROM OPENJSON(@p3)
  ))))
  ORDER BY CASE WHEN [t0].[name] IS NULL THEN 1 ELSE 0 END, [t0].[name] ASC
  OFFSET 0 ROWS FETCH NEXT 10 ROWS ONLY
  FOR JSON PATH, INCLUDE_NULL_VALUES
), N'[]') AS [root]
-- params: [{"kind":"session"},{"kind":"variable","name":"min","path":[],"coerce":"scalar"},{"kind":"variable","name":"names","path":[],"coerce":"json"}]
-- author multiplexed
SELECT CAST([__subs].[key] AS int) + 1 AS [result_id], [__fld_resp].[root] AS [result]
FROM OPENJSON(@p1) AS [__subs]
OUTER APPLY (
  SELECT ISNULL((
    SELECT [t0].[id] AS [id], [t0].[name] AS [name]
    FROM [dbo].[author] AS [t0]
    WHERE (([t0].[id] = CAST(JSON_VALUE(JSON_QUERY([__subs].[value], N'$."session"'), N'$."x-service-user-id"') AS int))) AND ((([t0].[id] >= CAST(JSON_VALUE([__subs].[value], N'$."query"."min"') AS int))) AND (([t0].[name] IN (
      SELECT CAST([value] AS nvarchar(100))
      FROM OPENJSON(ISNULL(JSON_QUERY([__subs].[value], N'$."query"."names"'), N'[]'))
    ))))
    ORDER BY CASE WHEN [t0].[name] IS NULL THEN 1 ELSE 0 END, [t0].[name] ASC
    OFFSET 0 ROWS FETCH NEXT 10 ROWS ONLY
    FOR JSON PATH, INCLUDE_NULL_VALUES
  ), N'[]') AS [root]
) AS [__fld_resp]
