-- insert_author
SET XACT_ABORT ON;
BEGIN TRANSACTION;
DECLARE @out TABLE ([id] int, [name] nvarchar(100), [rating] decimal(5,2), [active] bit);
MERGE INTO [dbo].[author] WITH (HOLDLOCK) AS [t1]
USING (VALUES (CAST(@p1 AS nvarchar(100)))) AS [s] ([name]) ON ([t1].[name] = [s].[name])
WHEN NOT MATCHED THEN INSERT ([name]) VALUES ([s].[name])
OUTPUT INSERTED.[id], INSERTED.[name], INSERTED.[rating], INSERTED.[active] INTO @out ([id], [name], [rating], [active]);
SELECT (
  SELECT CAST((
    SELECT COUNT(*)
    FROM @out
  ) AS int) AS [affected_rows]
  FOR JSON PATH, INCLUDE_NULL_VALUES, WITHOUT_ARRAY_WRAPPER
) AS [root];
COMMIT TRANSACTION
-- params: [{"kind":"literal","value":"Ann","query":true}]
