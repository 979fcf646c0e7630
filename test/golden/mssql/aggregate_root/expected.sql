-- article_aggregate
SELECT (
  SELECT JSON_QUERY((
    SELECT COUNT(*) AS [count], MAX([t2].[views]) AS [max.views], MAX([t2].[published_at]) AS [max.published_at], AVG(CAST([t2].[views] AS float)) AS [avg.views], SUM([t2].[views]) AS [sum.views]
    FROM (
      SELECT [t1].*
      FROM [dbo].[article] AS [t1]
      WHERE (([t1].[author_id] = CAST(@p1 AS int)))
    ) AS [t2]
    FOR JSON PATH, INCLUDE_NULL_VALUES, WITHOUT_ARRAY_WRAPPER
  )) AS [aggregate], JSON_QUERY(ISNULL((
    SELECT [t3].[id] AS [id], [t3].[title] AS [title]
    FROM [dbo].[article] AS [t3]
    WHERE (([t3].[author_id] = CAST(@p2 AS int)))
    FOR JSON PATH, INCLUDE_NULL_VALUES
  ), N'[]')) AS [nodes]
  FOR JSON PATH, INCLUDE_NULL_VALUES, WITHOUT_ARRAY_WRAPPER
) AS [root]
-- params: [{"kind":"literal","value":"1","query":true},{"kind":"literal","value":"1","query":true}]
