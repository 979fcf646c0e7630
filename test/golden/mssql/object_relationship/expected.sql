-- article
SELECT ISNULL((
  SELECT [t0].[title] AS [title], JSON_QUERY((
    SELECT [t1].[name] AS [name]
    FROM [dbo].[author] AS [t1]
    WHERE ([t0].[author_id] = [t1].[id])
    FOR JSON PATH, INCLUDE_NULL_VALUES, WITHOUT_ARRAY_WRAPPER
  )) AS [author]
  FROM [dbo].[article] AS [t0]
  FOR JSON PATH, INCLUDE_NULL_VALUES
), N'[]') AS [root]
-- params: []
