-- delete_article
SET XACT_ABORT ON;
BEGIN TRANSACTION;
DECLARE @out TABLE ([id] int, [title] nvarchar(max), [author_id] int, [views] bigint, [published_at] datetime2);
DELETE [t1]
OUTPUT DELETED.[id], DELETED.[title], DELETED.[author_id], DELETED.[views], DELETED.[published_at] INTO @out ([id], [title], [author_id], [views], [published_at])
FROM [dbo].[article] AS [t1]
WHERE (([t1].[views] < CAST(@p1 AS bigint)));
SELECT (
  SELECT CAST((
    SELECT COUNT(*)
    FROM @out
  ) AS int) AS [affected_rows], JSON_QUERY(ISNULL((
    SELECT [t0].[id] AS [id], JSON_QUERY((
      SELECT [t2].[name] AS [name]
      FROM [dbo].[author] AS [t2]
      WHERE ([t0].[author_id] = [t2].[id])
      FOR JSON PATH, INCLUDE_NULL_VALUES, WITHOUT_ARRAY_WRAPPER
    )) AS [author]
    FROM @out AS [t0]
    FOR JSON PATH, INCLUDE_NULL_VALUES
  ), N'[]')) AS [returning]
  FOR JSON PATH, INCLUDE_NULL_VALUES, WITHOUT_ARRAY_WRAPPER
) AS [root];
COMMIT TRANSACTION
-- params: [{"kind":"literal","value":"10","query":true}]
