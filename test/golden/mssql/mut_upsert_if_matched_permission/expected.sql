-- insert_author_one
SET XACT_ABORT ON;
BEGIN TRANSACTION;
DECLARE @out TABLE ([id] int, [name] nvarchar(100), [rating] decimal(5,2), [active] bit);
MERGE INTO [dbo].[author] WITH (HOLDLOCK) AS [t1]
USING (VALUES (CAST(@p1 AS nvarchar(100)), CAST(@p2 AS bit))) AS [s] ([name], [active]) ON ([t1].[name] = [s].[name])
WHEN MATCHED AND ((1 = 1) AND (([t1].[id] = CAST(JSON_VALUE(@p3, N'$."x-service-user-id"') AS int)))) THEN UPDATE SET [name] = [s].[name], [active] = CAST(@p4 AS bit)
WHEN NOT MATCHED THEN INSERT ([name], [active]) VALUES ([s].[name], [s].[active])
OUTPUT INSERTED.[id], INSERTED.[name], INSERTED.[rating], INSERTED.[active] INTO @out ([id], [name], [rating], [active]);
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
-- params: [{"kind":"literal","value":"Cy","query":true},{"kind":"literal","value":"true","query":true},{"kind":"session"},{"kind":"literal","value":"true","query":true}]
