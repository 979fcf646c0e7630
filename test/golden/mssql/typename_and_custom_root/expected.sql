-- names
SELECT ISNULL((
  SELECT @p1 AS [__typename], [t0].[id] AS [id], [t0].[name] AS [name]
  FROM [dbo].[author_names] AS [t0]
  FOR JSON PATH, INCLUDE_NULL_VALUES
), N'[]') AS [root]
-- params: [{"kind":"literal","value":"author_names","query":true}]
-- author_by_pk
SELECT (
  SELECT @p1 AS [__typename]
  FROM [dbo].[author] AS [t0]
  WHERE ((([t0].[id] = CAST(@p2 AS int))))
  ORDER BY (
    SELECT NULL
  )
  OFFSET 0 ROWS FETCH NEXT 1 ROWS ONLY
  FOR JSON PATH, INCLUDE_NULL_VALUES, WITHOUT_ARRAY_WRAPPER
) AS [root]
-- params: [{"kind":"literal","value":"author","query":true},{"kind":"literal","value":"1","query":true}]
