-- delete_article
SET XACT_ABORT ON;
BEGIN TRANSACTION;
DECLARE @out TABLE ([id] int, [title] nvarchar(max), [author_id] int, [views] bigint, [published_at] datetime2);
DELETE [t1]
OUTPUT DELETED.[id], DELETED.[title], DELETED.[author_id], DELETED.[views], DELETED.[published_at] INTO @out ([id], [title], [author_id], [views], [published_at])
FROM [dbo].[article] AS [t1]
WHERE (([t1].[author_id] = CAST(JSON_VALUE(@p1, N'$."x-service-user-id"') AS int)));
SELECT (
  SELECT CAST((
    SELECT COUNT(*)
    FROM @out
  ) AS int) AS [affected_rows]
  FOR JSON PATH, INCLUDE_NULL_VALUES, WITHOUT_ARRAY_WRAPPER
) AS [root];
COMMIT TRANSACTION
-- params: [{"kind":"session"}]
