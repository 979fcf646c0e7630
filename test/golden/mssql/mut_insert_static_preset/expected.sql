-- insert_author_one
SET XACT_ABORT ON;
BEGIN TRANSACTION;
DECLARE @out TABLE ([id] int, [name] nvarchar(100), [rating] decimal(5,2), [active] bit);
INSERT INTO [dbo].[author] ([active], [name])
OUTPUT INSERTED.[id], INSERTED.[name], INSERTED.[rating], INSERTED.[active] INTO @out ([id], [name], [rating], [active])
VALUES (CAST(@p1 AS bit), CAST(@p2 AS nvarchar(100)));
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
-- params: [{"kind":"literal","value":"true","query":true},{"kind":"literal","value":"Cy","query":true}]
