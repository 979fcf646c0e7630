-- update_author_by_pk
SET XACT_ABORT ON;
BEGIN TRANSACTION;
DECLARE @out TABLE ([id] int, [name] nvarchar(100), [rating] decimal(5,2), [active] bit);
UPDATE [t1]
SET [rating] = CAST(@p1 AS decimal(5,2)), [active] = CAST(@p2 AS bit)
OUTPUT INSERTED.[id], INSERTED.[name], INSERTED.[rating], INSERTED.[active] INTO @out ([id], [name], [rating], [active])
FROM [dbo].[author] AS [t1]
WHERE (([t1].[id] = CAST(JSON_VALUE(@p3, N'$."x-service-user-id"') AS int))) AND ((([t1].[id] = CAST(@p4 AS int))));
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
-- params: [{"kind":"literal","value":"2","query":true},{"kind":"literal","value":"true","query":true},{"kind":"session"},{"kind":"literal","value":"7","query":true}]
