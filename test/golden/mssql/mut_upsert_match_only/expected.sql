-- insert_author
SET XACT_ABORT ON;
BEGIN TRANSACTION;
DECLARE @out TABLE ([id] int, [name] nvarchar(100), [rating] decimal(5,2), [active] bit);
MERGE INTO [dbo].[author] WITH (HOLDLOCK) AS [t1] USING (VALUES (CAST(@p1 AS int), CAST(@p2 AS nvarchar(100)))) AS [s] ([id], [name]) ON ([t1].[id] = [s].[id]) WHEN NOT MATCHED THEN INSERT ([id], [name]) VALUES ([s].[id], [s].[name]) OUTPUT INSERTED.[id], INSERTED.[name], INSERTED.[rating], INSERTED.[active] INTO @out ([id], [name], [rating], [active]);
SELECT (SELECT CAST((SELECT COUNT(*) FROM @out) AS int) AS [affected_rows] FOR JSON PATH, INCLUDE_NULL_VALUES, WITHOUT_ARRAY_WRAPPER) AS [root];
COMMIT TRANSACTION
-- params: [{"kind":"literal","value":"1","query":true},{"kind":"literal","value":"Ann","query":true}]
