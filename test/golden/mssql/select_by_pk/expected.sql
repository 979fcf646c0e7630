-- author_by_pk
SELECT (
  SELECT [t0].[id] AS [id], [t0].[name] AS [name]
  FROM [dbo].[author] AS [t0]
  WHERE ((([t0].[id] = CAST(@p1 AS int))))
  ORDER BY (
    SELECT NULL
  )
  OFFSET 0 ROWS FETCH NEXT 1 ROWS ONLY
  FOR JSON PATH, INCLUDE_NULL_VALUES, WITHOUT_ARRAY_WRAPPER
) AS [root]
-- params: [{"kind":"literal","value":"7","query":true}]
