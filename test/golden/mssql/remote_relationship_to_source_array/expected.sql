-- author
SELECT ISNULL((
  SELECT [t0].[id] AS [id], [t0].[id] AS [__orders_id]
  FROM [dbo].[author] AS [t0]
  ORDER BY CASE WHEN [t0].[id] IS NULL THEN 1 ELSE 0 END, [t0].[id] ASC
  FOR JSON PATH, INCLUDE_NULL_VALUES
), N'[]') AS [root]
-- params: []
-- 1
SELECT N'[' + ISNULL(STRING_AGG([t2].[value], N',') WITHIN GROUP (ORDER BY [t2].[__ord]), N'') + N']' AS [root]
FROM (
  SELECT [t1].[__ord], ISNULL((
    SELECT [t0].[id] AS [id]
    FROM [sales].[order] AS [t0]
    WHERE ([t1].[id] = [t0].[author_id]) AND (([t0].[author_id] > CAST(@p1 AS int)))
    ORDER BY CASE WHEN [t0].[id] IS NULL THEN 0 ELSE 1 END, [t0].[id] DESC
    OFFSET 0 ROWS FETCH NEXT 2 ROWS ONLY
    FOR JSON PATH, INCLUDE_NULL_VALUES
  ), N'[]') AS [value]
  FROM (
    SELECT CAST([key] AS int) AS [__ord], CAST(JSON_VALUE([value], N'$."id"') AS int) AS [id]
    FROM OPENJSON(@p2)
  ) AS [t1]
) AS [t2]
-- params: [{"kind":"literal","value":"0","query":true},{"kind":"join-keys"}]
