-- author
SELECT ISNULL((
  SELECT [t0].[name] AS [name]
  FROM [dbo].[author] AS [t0]
  ORDER BY CASE WHEN (
    SELECT COUNT(*)
    FROM [dbo].[article] AS [t1]
    WHERE ([t0].[id] = [t1].[author_id]) AND (1 = 1)
  ) IS NULL THEN 0 ELSE 1 END, (
    SELECT COUNT(*)
    FROM [dbo].[article] AS [t1]
    WHERE ([t0].[id] = [t1].[author_id]) AND (1 = 1)
  ) DESC, CASE WHEN [t0].[name] IS NULL THEN 0 ELSE 1 END, [t0].[name] ASC
  FOR JSON PATH, INCLUDE_NULL_VALUES
), N'[]') AS [root]
-- params: []
-- article
SELECT ISNULL((
  SELECT [t0].[id] AS [id]
  FROM [dbo].[article] AS [t0]
  ORDER BY CASE WHEN (
    SELECT TOP 1 [t1].[name]
    FROM [dbo].[author] AS [t1]
    WHERE ([t0].[author_id] = [t1].[id]) AND (1 = 1)
  ) IS NULL THEN 1 ELSE 0 END, (
    SELECT TOP 1 [t1].[name]
    FROM [dbo].[author] AS [t1]
    WHERE ([t0].[author_id] = [t1].[id]) AND (1 = 1)
  ) ASC
  FOR JSON PATH, INCLUDE_NULL_VALUES
), N'[]') AS [root]
-- params: []
