-- update_article
SET XACT_ABORT ON;
BEGIN TRANSACTION;
DECLARE @out TABLE ([id] int, [title] nvarchar(max), [author_id] int, [views] bigint, [published_at] datetime2);
UPDATE [t1]
SET [views] = [t1].[views] + CAST(@p1 AS bigint)
OUTPUT INSERTED.[id], INSERTED.[title], INSERTED.[author_id], INSERTED.[views], INSERTED.[published_at] INTO @out ([id], [title], [author_id], [views], [published_at])
FROM [dbo].[article] AS [t1]
WHERE (([t1].[author_id] = CAST(JSON_VALUE(@p2, N'$."x-service-user-id"') AS int))) AND (([t1].[title] LIKE CAST(@p3 AS nvarchar(max))));
IF EXISTS (
  SELECT 1
  FROM @out AS [t0]
  WHERE (CASE WHEN ([t0].[views] >= CAST(@p4 AS bigint)) THEN 1 ELSE 0 END) = 0
) THROW 50000, N'service-permission-check-failed', 1;
SELECT (
  SELECT CAST((
    SELECT COUNT(*)
    FROM @out
  ) AS int) AS [affected_rows]
  FOR JSON PATH, INCLUDE_NULL_VALUES, WITHOUT_ARRAY_WRAPPER
) AS [root];
COMMIT TRANSACTION
-- params: [{"kind":"literal","value":"2","query":true},{"kind":"session"},{"kind":"literal","value":"%a%","query":true},{"kind":"literal","value":"0","query":true}]
