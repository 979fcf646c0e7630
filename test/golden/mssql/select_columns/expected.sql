-- author
SELECT ISNULL((
  SELECT [t0].[id] AS [id], [t0].[name] AS [name], [t0].[rating] AS [rating], [t0].[active] AS [active]
  FROM [dbo].[author] AS [t0]
  FOR JSON PATH, INCLUDE_NULL_VALUES
), N'[]') AS [root]
-- params: []
