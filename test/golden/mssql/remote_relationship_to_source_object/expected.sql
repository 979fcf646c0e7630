-- article
SELECT ISNULL((
  SELECT [t0].[title] AS [title], [t0].[author_id] AS [__writer_author_id]
  FROM [dbo].[article] AS [t0]
  WHERE ((([t0].[views] > CAST(@p1 AS bigint))) OR (([t0].[title] LIKE CAST(@p2 AS nvarchar(max)))))
  FOR JSON PATH, INCLUDE_NULL_VALUES
), N'[]') AS [root]
-- params: [{"kind":"literal","value":"100","query":true},{"kind":"literal","value":"%guide%","query":true}]
-- 1
SELECT N'[' + ISNULL(STRING_AGG([t2].[value], N',') WITHIN GROUP (ORDER BY [t2].[__ord]), N'') + N']' AS [root]
FROM (
  SELECT [t1].[__ord], ISNULL((
    SELECT [t0].[name] AS [name], [t0].[rating] AS [rating]
    FROM [dbo].[author] AS [t0]
    WHERE ([t1].[author_id] = [t0].[id]) AND (([t0].[active] = CAST(@p1 AS bit)))
    ORDER BY (
      SELECT NULL
    )
    OFFSET 0 ROWS FETCH NEXT 1 ROWS ONLY
    FOR JSON PATH, INCLUDE_NULL_VALUES, WITHOUT_ARRAY_WRAPPER
  ), N'null') AS [value]
  FROM (
    SELECT CAST([key] AS int) AS [__ord], CAST(JSON_VALUE([value], N'$."author_id"') AS int) AS [author_id]
    FROM OPENJSON(@p2)
  ) AS [t1]
) AS [t2]
-- params: [{"kind":"literal","value":"true","query":true},{"kind":"join-keys"}]
