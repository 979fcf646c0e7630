-- update_article_many
SET XACT_ABORT ON;
BEGIN TRANSACTION;
DECLARE @out TABLE ([id] int, [title] nvarchar(max), [author_id] int, [views] bigint, [published_at] datetime2);
UPDATE [t1]
SET [title] = CAST(@p1 AS nvarchar(max))
OUTPUT INSERTED.[id], INSERTED.[title], INSERTED.[author_id], INSERTED.[views], INSERTED.[published_at] INTO @out ([id], [title], [author_id], [views], [published_at])
FROM [dbo].[article] AS [t1]
WHERE (([t1].[id] = CAST(@p2 AS int)));
SELECT (
  SELECT CAST((
    SELECT COUNT(*)
    FROM @out
  ) AS int) AS [affected_rows]
  FOR JSON PATH, INCLUDE_NULL_VALUES, WITHOUT_ARRAY_WRAPPER
) AS [root];
COMMIT TRANSACTION
-- params: [{"kind":"literal","value":"One","query":true},{"kind":"literal","value":"1","query":true}]
-- update_article_many
SET XACT_ABORT ON;
BEGIN TRANSACTION;
DECLARE @out TABLE ([id] int, [title] nvarchar(max), [author_id] int, [views] bigint, [published_at] datetime2);
UPDATE [t1]
SET [views] = [t1].[views] + CAST(@p1 AS bigint)
OUTPUT INSERTED.[id], INSERTED.[title], INSERTED.[author_id], INSERTED.[views], INSERTED.[published_at] INTO @out ([id], [title], [author_id], [views], [published_at])
FROM [dbo].[article] AS [t1]
WHERE (([t1].[id] = CAST(@p2 AS int)));
SELECT (
  SELECT CAST((
    SELECT COUNT(*)
    FROM @out
  ) AS int) AS [affected_rows]
  FOR JSON PATH, INCLUDE_NULL_VALUES, WITHOUT_ARRAY_WRAPPER
) AS [root];
COMMIT TRANSACTION
-- params: [{"kind":"literal","value":"5","query":true},{"kind":"literal","value":"2","query":true}]
