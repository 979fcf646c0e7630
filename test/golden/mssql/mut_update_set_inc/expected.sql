-- update_article
SET XACT_ABORT ON;
BEGIN TRANSACTION;
DECLARE @out TABLE ([id] int, [title] nvarchar(max), [author_id] int, [views] bigint, [published_at] datetime2);
UPDATE [t1]
SET [title] = CAST(@p1 AS nvarchar(max)), [views] = [t1].[views] + CAST(@p2 AS bigint)
OUTPUT INSERTED.[id], INSERTED.[title], INSERTED.[author_id], INSERTED.[views], INSERTED.[published_at] INTO @out ([id], [title], [author_id], [views], [published_at])
FROM [dbo].[article] AS [t1]
WHERE (([t1].[id] > CAST(@p3 AS int)));
SELECT (
  SELECT CAST((
    SELECT COUNT(*)
    FROM @out
  ) AS int) AS [affected_rows], JSON_QUERY(ISNULL((
    SELECT [t0].[id] AS [id], [t0].[views] AS [views]
    FROM @out AS [t0]
    FOR JSON PATH, INCLUDE_NULL_VALUES
  ), N'[]')) AS [returning]
  FOR JSON PATH, INCLUDE_NULL_VALUES, WITHOUT_ARRAY_WRAPPER
) AS [root];
COMMIT TRANSACTION
-- params: [{"kind":"literal","value":"New","query":true},{"kind":"literal","value":"1","query":true},{"kind":"literal","value":"10","query":true}]
