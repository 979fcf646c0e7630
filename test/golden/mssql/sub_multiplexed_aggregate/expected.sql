-- article_aggregate
SELECT (
  SELECT JSON_QUERY((
    SELECT COUNT(*) AS [count]
    FROM (
      SELECT [t1].*
      FROM [dbo].[article] AS [t1]
      WHERE (([t1].[title] LIKE CAST(@p1 AS nvarchar(max))))
    ) AS [t2]
    FOR JSON PATH, INCLUDE_NULL_VALUES, WITHOUT_ARRAY_WRAPPER
  )) AS [aggregate]
  FOR JSON PATH, INCLUDE_NULL_VALUES, WITHOUT_ARRAY_WRAPPER
) AS [root]
-- params: [{"kind":"literal","value":"%x%","query":true}]
-- article_aggregate multiplexed
SELECT CAST([__subs].[key] AS int) + 1 AS [result_id], [__fld_resp].[root] AS [result]
FROM OPENJSON(@p1) AS [__subs]
OUTER APPLY (
  SELECT (
    SELECT JSON_QUERY((
      SELECT COUNT(*) AS [count]
      FROM (
        SELECT [t1].*
        FROM [dbo].[article] AS [t1]
        WHERE (([t1].[title] LIKE CAST(JSON_VALUE([__subs].[value], N'$."synthetic"[0]') AS nvarchar(max))))
      ) AS [t2]
      FOR JSON PATH, INCLUDE_NULL_VALUES, WITHOUT_ARRAY_WRAPPER
    )) AS [aggregate]
    FOR JSON PATH, INCLUDE_NULL_VALUES, WITHOUT_ARRAY_WRAPPER
  ) AS [root]
) AS [__fld_resp]
