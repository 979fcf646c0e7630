-- insert_author
SET XACT_ABORT ON;
BEGIN TRANSACTION;
DECLARE @out TABLE ([id] int, [name] nvarchar(100), [rating] decimal(5,2), [active] bit);
MERGE INTO [dbo].[author] WITH (HOLDLOCK) AS [t1]
USING (VALUES (CAST(@p1 AS nvarchar(100)), CAST(@p2 AS decimal(5,2)))) AS [s] ([name], [rating]) ON ([t1].[name] = [s].[name])
WHEN MATCHED AND ((([t1].[active] = CAST(@p3 AS bit))) AND (1 = 1)) THEN UPDATE SET [rating] = [s].[rating]
WHEN NOT MATCHED THEN INSERT ([name], [rating]) VALUES ([s].[name], [s].[rating])
OUTPUT INSERTED.[id], INSERTED.[name], INSERTED.[rating], INSERTED.[active] INTO @out ([id], [name], [rating], [active]);
MERGE INTO [dbo].[author] WITH (HOLDLOCK) AS [t1]
USING (VALUES (CAST(@p4 AS nvarchar(100)))) AS [s] ([name]) ON ([t1].[name] = [s].[name])
WHEN NOT MATCHED THEN INSERT ([name]) VALUES ([s].[name])
OUTPUT INSERTED.[id], INSERTED.[name], INSERTED.[rating], INSERTED.[active] INTO @out ([id], [name], [rating], [active]);
SELECT (
  SELECT CAST((
    SELECT COUNT(*)
    FROM @out
  ) AS int) AS [affected_rows], JSON_QUERY(ISNULL((
    SELECT [t0].[id] AS [id], [t0].[name] AS [name]
    FROM @out AS [t0]
    FOR JSON PATH, INCLUDE_NULL_VALUES
  ), N'[]')) AS [returning]
  FOR JSON PATH, INCLUDE_NULL_VALUES, WITHOUT_ARRAY_WRAPPER
) AS [root];
COMMIT TRANSACTION
-- params: [{"kind":"literal","value":"Ann","query":true},{"kind":"literal","value":"4","query":true},{"kind":"literal","value":"true","query":true},{"kind":"literal","value":"Bo","query":true}]
