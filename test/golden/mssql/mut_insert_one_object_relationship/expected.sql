-- insert_article_one
SET XACT_ABORT ON;
BEGIN TRANSACTION;
DECLARE @out TABLE ([id] int, [title] nvarchar(max), [author_id] int, [views] bigint, [published_at] datetime2);
INSERT INTO [dbo].[article] ([title], [author_id], [views])
OUTPUT INSERTED.[id], INSERTED.[title], INSERTED.[author_id], INSERTED.[views], INSERTED.[published_at] INTO @out ([id], [title], [author_id], [views], [published_at])
VALUES (CAST(@p1 AS nvarchar(max)), CAST(@p2 AS int), CAST(@p3 AS bigint));
SELECT (
  SELECT [t0].[id] AS [id], [t0].[title] AS [title], JSON_QUERY((
    SELECT [t2].[name] AS [name]
    FROM [dbo].[author] AS [t2]
    WHERE ([t0].[author_id] = [t2].[id])
    FOR JSON PATH, INCLUDE_NULL_VALUES, WITHOUT_ARRAY_WRAPPER
  )) AS [author]
  FROM @out AS [t0]
  ORDER BY (
    SELECT NULL
  )
  OFFSET 0 ROWS FETCH NEXT 1 ROWS ONLY
  FOR JSON PATH, INCLUDE_NULL_VALUES, WITHOUT_ARRAY_WRAPPER
) AS [root];
COMMIT TRANSACTION
-- params: [{"kind":"literal","value":"Hello","query":true},{"kind":"literal","value":"1","query":true},{"kind":"literal","value":"3","query":true}]
