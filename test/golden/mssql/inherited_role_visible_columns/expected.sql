-- author
SELECT ISNULL((
  SELECT [t0].[id] AS [id], [t0].[name] AS [name], CASE WHEN ([t0].[active] = CAST(@p1 AS bit)) THEN [t0].[rating] ELSE NULL END AS [rating]
  FROM [dbo].[author] AS [t0]
  WHERE ((([t0].[id] = CAST(JSON_VALUE(@p2, N'$."x-service-user-id"') AS int))) OR (([t0].[active] = CAST(@p3 AS bit))))
  FOR JSON PATH, INCLUDE_NULL_VALUES
), N'[]') AS [root]
-- params: [{"kind":"literal","value":"true","query":true},{"kind":"session"},{"kind":"literal","value":"true","query":true}]
