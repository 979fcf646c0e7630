-- sales_order
SELECT ISNULL((
  SELECT [t0].[id] AS [id], JSON_QUERY((
    SELECT [t1].[name] AS [name]
    FROM [dbo].[author] AS [t1]
    WHERE ([t0].[author_id] = [t1].[id])
    FOR JSON PATH, INCLUDE_NULL_VALUES, WITHOUT_ARRAY_WRAPPER
  )) AS [buyer]
  FROM [sales].[order] AS [t0]
  FOR JSON PATH, INCLUDE_NULL_VALUES
), N'[]') AS [root]
-- params: []
