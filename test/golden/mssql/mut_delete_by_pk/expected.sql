-- delete_author_by_pk
SET XACT_ABORT ON;
BEGIN TRANSACTION;
DECLARE @out TABLE ([id] int, [name] nvarchar(100), [rating] decimal(5,2), [active] bit);
DELETE [t1]
OUTPUT DELETED.[id], DELETED.[name], DELETED.[rating], DELETED.[active] INTO @out ([id], [name], [rating], [active])
FROM [dbo].[author] AS [t1]
WHERE ((([t1].[id] = CAST(@p1 AS int))));
SELECT (
  SELECT [t0].[id] AS [id], [t0].[name] AS [name]
  FROM @out AS [t0]
  ORDER BY (
    SELECT NULL
  )
  OFFSET 0 ROWS FETCH NEXT 1 ROWS ONLY
  FOR JSON PATH, INCLUDE_NULL_VALUES, WITHOUT_ARRAY_WRAPPER
) AS [root];
COMMIT TRANSACTION
-- params: [{"kind":"literal","value":"3","query":true}]
