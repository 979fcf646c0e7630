-- insert_article
SET XACT_ABORT ON;
BEGIN TRANSACTION;
DECLARE @out TABLE ([id] int, [title] nvarchar(max), [author_id] int, [views] bigint, [published_at] datetime2);
INSERT INTO [dbo].[article] ([author_id], [title], [views])
OUTPUT INSERTED.[id], INSERTED.[title], INSERTED.[author_id], INSERTED.[views], INSERTED.[published_at] INTO @out ([id], [title], [author_id], [views], [published_at])
VALUES (CAST(JSON_VALUE(@p1, N'$."x-service-user-id"') AS int), CAST(@p2 AS nvarchar(max)), CAST(@p3 AS bigint));
IF EXISTS (
  SELECT 1
  FROM @out AS [t0]
  WHERE (CASE WHEN (([t0].[views] < CAST(@p4 AS bigint))) AND (EXISTS (
    SELECT 1
    FROM [dbo].[author] AS [t2]
    WHERE ([t0].[author_id] = [t2].[id]) AND (([t2].[active] = CAST(@p5 AS bit)))
  )) THEN 1 ELSE 0 END) = 0
) THROW 50000, N'service-permission-check-failed', 1;
SELECT (
  SELECT CAST((
    SELECT COUNT(*)
    FROM @out
  ) AS int) AS [affected_rows], JSON_QUERY(ISNULL((
    SELECT [t0].[id] AS [id], [t0].[title] AS [title]
    FROM @out AS [t0]
    FOR JSON PATH, INCLUDE_NULL_VALUES
  ), N'[]')) AS [returning]
  FOR JSON PATH, INCLUDE_NULL_VALUES, WITHOUT_ARRAY_WRAPPER
) AS [root];
COMMIT TRANSACTION
-- params: [{"kind":"session"},{"kind":"literal","value":"Mine","query":true},{"kind":"literal","value":"5","query":true},{"kind":"literal","value":"1000","query":true},{"kind":"literal","value":"true","query":true}]
