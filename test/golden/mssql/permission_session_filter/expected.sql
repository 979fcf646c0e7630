-- author
SELECT ISNULL((
  SELECT [t0].[id] AS [id], [t0].[name] AS [name]
  FROM [dbo].[author] AS [t0]
  WHERE (([t0].[id] = CAST(JSON_VALUE(@p1, N'$."x-service-user-id"') AS int)))
  FOR JSON PATH, INCLUDE_NULL_VALUES
), N'[]') AS [root]
-- params: [{"kind":"session"}]
-- article
SELECT ISNULL((
  SELECT [t0].[id] AS [id], [t0].[title] AS [title], JSON_QUERY((
    SELECT [t1].[name] AS [name]
    FROM [dbo].[author] AS [t1]
    WHERE ([t0].[author_id] = [t1].[id]) AND (([t1].[id] = CAST(JSON_VALUE(@p1, N'$."x-service-user-id"') AS int)))
    FOR JSON PATH, INCLUDE_NULL_VALUES, WITHOUT_ARRAY_WRAPPER
  )) AS [author]
  FROM [dbo].[article] AS [t0]
  WHERE (EXISTS (
    SELECT 1
    FROM [dbo].[author] AS [t2]
    WHERE ([t0].[author_id] = [t2].[id]) AND (([t2].[id] = CAST(JSON_VALUE(@p1, N'$."x-service-user-id"') AS int)))
  ))
  FOR JSON PATH, INCLUDE_NULL_VALUES
), N'[]') AS [root]
-- params: [{"kind":"session"}]
