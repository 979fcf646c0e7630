-- author
SELECT ISNULL((
  SELECT [t0].[name] AS [name], JSON_QUERY((
    SELECT JSON_QUERY((
      SELECT COUNT(DISTINCT [t2].[views]) AS [count], MIN([t2].[views]) AS [min.views]
      FROM (
        SELECT [t1].*
        FROM [dbo].[article] AS [t1]
        WHERE ([t0].[id] = [t1].[author_id])
      ) AS [t2]
      FOR JSON PATH, INCLUDE_NULL_VALUES, WITHOUT_ARRAY_WRAPPER
    )) AS [aggregate]
    FOR JSON PATH, INCLUDE_NULL_VALUES, WITHOUT_ARRAY_WRAPPER
  )) AS [articles_aggregate]
  FROM [dbo].[author] AS [t0]
  FOR JSON PATH, INCLUDE_NULL_VALUES
), N'[]') AS [root]
-- params: []
