-- update_author_by_pk
SET XACT_ABORT ON;
BEGIN TRANSACTION;
DECLARE @out TABLE ([id] int, [name] nvarchar(100), [rating] decimal(5,2), [active] bit);
UPDATE [t1]
SET [name] = CAST(@p1 AS nvarchar(100))
OUTPUT INSERTED.[id], INSERTED.[name], INSERTED.[rating], INSERTED.[active] INTO @out ([id], [name], [rating], [active])
FROM [dbo].[author] AS [t1]
WHERE ((([t1].[id] = CAST(@p2 AS int))));
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
-- params: [{"kind":"literal","value":"Dee","query":true},{"kind":"literal","value":"1","query":true}]
