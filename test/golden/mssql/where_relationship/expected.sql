-- article
SELECT ISNULL((
  SELECT [t0].[id] AS [id]
  FROM [dbo].[article] AS [t0]
  WHERE (EXISTS (
    SELECT 1
    FROM [dbo].[author] AS [t1]
    WHERE ([t0].[author_id] = [t1].[id]) AND ((([t1].[name] = CAST(@p1 AS nvarchar(100)))) AND (EXISTS (
      SELECT 1
      FROM [dbo].[article] AS [t2]
      WHERE ([t1].[id] = [t2].[author_id]) AND (([t2].[views] >= CAST(@p2 AS bigint)))
    )))
  ))
  FOR JSON PATH, INCLUDE_NULL_VALUES
), N'[]') AS [root]
-- params: [{"kind":"literal","value":"Ann","query":true},{"kind":"literal","value":"5","query":true}]
