-- author
SELECT ISNULL((
  SELECT [t0].[name] AS [name], JSON_QUERY(ISNULL((
    SELECT [t1].[title] AS [title], [t1].[views] AS [views]
    FROM [dbo].[article] AS [t1]
    WHERE ([t0].[id] = [t1].[author_id]) AND (([t1].[views] > CAST(@p1 AS bigint)))
    ORDER BY CASE WHEN [t1].[published_at] IS NULL THEN 0 ELSE 1 END, [t1].[published_at] DESC
    OFFSET 0 ROWS FETCH NEXT 3 ROWS ONLY
    FOR JSON PATH, INCLUDE_NULL_VALUES
  ), N'[]')) AS [articles]
  FROM [dbo].[author] AS [t0]
  FOR JSON PATH, INCLUDE_NULL_VALUES
), N'[]') AS [root]
-- params: [{"kind":"literal","value":"10","query":true}]
