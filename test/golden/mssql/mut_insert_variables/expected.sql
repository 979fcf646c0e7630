-- insert_article
SET XACT_ABORT ON;
BEGIN TRANSACTION;
DECLARE @out TABLE ([id] int, [title] nvarchar(max), [author_id] int, [views] bigint, [published_at] datetime2);
INSERT INTO [dbo].[article] ([title], [author_id], [views])
OUTPUT INSERTED.[id], INSERTED.[title], INSERTED.[author_id], INSERTED.[views], INSERTED.[published_at] INTO @out ([id], [title], [author_id], [views], [published_at])
VALUES (CAST(@p1 AS nvarchar(max)), CAST(@p2 AS int), DEFAULT), (CAST(@p3 AS nvarchar(max)), CAST(@p4 AS int), CAST(@p5 AS bigint));
SELECT (
  SELECT CAST((
    SELECT COUNT(*)
    FROM @out
  ) AS int) AS [affected_rows]
  FOR JSON PATH, INCLUDE_NULL_VALUES, WITHOUT_ARRAY_WRAPPER
) AS [root];
COMMIT TRANSACTION
-- params: [{"kind":"literal","value":"A","query":true},{"kind":"literal","value":"1","query":true},{"kind":"literal","value":"B","query":true},{"kind":"literal","value":"2","query":true},{"kind":"literal","value":"9","query":true}]
