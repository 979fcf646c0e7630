-- article_by_pk
SELECT (
  SELECT [t0].[id] AS [id], [t0].[title] AS [title], JSON_QUERY((
    SELECT [t1].[name] AS [name]
    FROM [dbo].[author] AS [t1]
    WHERE ([t0].[author_id] = [t1].[id])
    FOR JSON PATH, INCLUDE_NULL_VALUES, WITHOUT_ARRAY_WRAPPER
  )) AS [author]
  FROM [dbo].[article] AS [t0]
  WHERE ((([t0].[id] = CAST(@p1 AS int))))
  ORDER BY (
    SELECT NULL
  )
  OFFSET 0 ROWS FETCH NEXT 1 ROWS ONLY
  FOR JSON PATH, INCLUDE_NULL_VALUES, WITHOUT_ARRAY_WRAPPER
) AS [root]
-- params: [{"kind":"literal","value":"3","query":true}]
-- article_by_pk multiplexed
SELECT CAST([__subs].[key] AS int) + 1 AS [result_id], [__fld_resp].[root] AS [result]
FROM OPENJSON(@p1) AS [__subs]
OUTER APPLY (
  SELECT (
    SELECT [t0].[id] AS [id], [t0].[title] AS [title], JSON_QUERY((
      SELECT [t1].[name] AS [name]
      FROM [dbo].[author] AS [t1]
      WHERE ([t0].[author_id] = [t1].[id])
      FOR JSON PATH, INCLUDE_NULL_VALUES, WITHOUT_ARRAY_WRAPPER
    )) AS [author]
    FROM [dbo].[article] AS [t0]
    WHERE ((([t0].[id] = CAST(JSON_VALUE([__subs].[value], N'$."synthetic"[0]') AS int))))
    ORDER BY (
      SELECT NULL
    )
    OFFSET 0 ROWS FETCH NEXT 1 ROWS ONLY
    FOR JSON PATH, INCLUDE_NULL_VALUES, WITHOUT_ARRAY_WRAPPER
  ) AS [root]
) AS [__fld_resp]
