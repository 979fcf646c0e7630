-- author
SELECT ISNULL((
  SELECT [t0].[id] AS [id]
  FROM [dbo].[author] AS [t0]
  WHERE ((([t0].[name] = CAST(@p1 AS nvarchar(100)))) AND (([t0].[id] IN (
    SELECT CAST([value] AS int)
    FROM OPENJSON(@p2)
  ))))
  FOR JSON PATH, INCLUDE_NULL_VALUES
), N'[]') AS [root]
-- params: [{"kind":"variable","name":"name","path":[],"coerce":"scalar"},{"kind":"variable","name":"ids","path":[],"coerce":"json"}]
