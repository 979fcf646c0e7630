-- author
SELECT ISNULL((
  SELECT [t0].[id] AS [id], [t0].[name] AS [name]
  FROM [dbo].[author] AS [t0]
  WHERE ((([t0].[name] LIKE CAST(@p1 AS nvarchar(100)))) AND (([t0].[rating] >= CAST(@p2 AS decimal(5,2)))))
  ORDER BY CASE WHEN [t0].[rating] IS NULL THEN 1 ELSE 0 END, [t0].[rating] DESC, CASE WHEN [t0].[name] IS NULL THEN 1 ELSE 0 END, [t0].[name] ASC
  OFFSET 10 ROWS FETCH NEXT 5 ROWS ONLY
  FOR JSON PATH, INCLUDE_NULL_VALUES
), N'[]') AS [root]
-- params: [{"kind":"literal","value":"A%","query":true},{"kind":"literal","value":"3.5","query":true}]
