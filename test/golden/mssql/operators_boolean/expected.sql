-- article
SELECT ISNULL((
  SELECT [t0].[id] AS [id]
  FROM [dbo].[article] AS [t0]
  WHERE ((((LOWER([t0].[title]) LIKE LOWER(CAST(@p1 AS nvarchar(max))))) OR (NOT (([t0].[views] IS NULL)))) AND ((([t0].[id] IN (
    SELECT CAST([value] AS int)
    FROM OPENJSON(@p2)
  ))) AND (([t0].[id] NOT IN (
    SELECT CAST([value] AS int)
    FROM OPENJSON(@p3)
  ))) AND (([t0].[title] NOT LIKE CAST(@p4 AS nvarchar(max)))) AND (([t0].[views] <> CAST(@p5 AS bigint)) AND ([t0].[views] < CAST(@p6 AS bigint)))))
  FOR JSON PATH, INCLUDE_NULL_VALUES
), N'[]') AS [root]
-- params: [{"kind":"literal","value":"%sql%","query":true},{"kind":"literal","value":"[1,2,3]","query":true},{"kind":"literal","value":"[4]","query":true},{"kind":"literal","value":"draft%","query":true},{"kind":"literal","value":"0","query":true},{"kind":"literal","value":"1000","query":true}]
