-- author
SELECT ISNULL((
  SELECT [t0].[id] AS [id], [t0].[rating] AS [rating]
  FROM [dbo].[author] AS [t0]
  WHERE (([t0].[active] = CAST(@p1 AS bit)))
  ORDER BY (
    SELECT NULL
  )
  OFFSET 0 ROWS FETCH NEXT 10 ROWS ONLY
  FOR JSON PATH, INCLUDE_NULL_VALUES
), N'[]') AS [root]
-- params: [{"kind":"literal","value":"true","query":true}]
-- article
SELECT ISNULL((
  SELECT [t0].[id] AS [id], [t0].[views] AS [views]
  FROM [dbo].[article] AS [t0]
  WHERE ((([t0].[views] > CAST(@p1 AS bigint))) OR (([t0].[title] LIKE CAST(@p2 AS nvarchar(max)))))
  FOR JSON PATH, INCLUDE_NULL_VALUES
), N'[]') AS [root]
-- params: [{"kind":"literal","value":"100","query":true},{"kind":"literal","value":"%guide%","query":true}]
-- author_aggregate
SELECT (
  SELECT JSON_QUERY((
    SELECT COUNT(*) AS [count]
    FROM (
      SELECT [t1].*
      FROM [dbo].[author] AS [t1]
      WHERE (([t1].[active] = CAST(@p1 AS bit)))
      ORDER BY (
        SELECT NULL
      )
      OFFSET 0 ROWS FETCH NEXT 10 ROWS ONLY
    ) AS [t2]
    FOR JSON PATH, INCLUDE_NULL_VALUES, WITHOUT_ARRAY_WRAPPER
  )) AS [aggregate]
  FOR JSON PATH, INCLUDE_NULL_VALUES, WITHOUT_ARRAY_WRAPPER
) AS [root]
-- params: [{"kind":"literal","value":"true","query":true}]
