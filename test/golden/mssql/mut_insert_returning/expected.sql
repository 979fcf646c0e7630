-- insert_author
SET XACT_ABORT ON;
BEGIN TRANSACTION;
DECLARE @out TABLE ([id] int, [name] nvarchar(100), [rating] decimal(5,2), [active] bit);
INSERT INTO [dbo].[author] ([name], [rating])
OUTPUT INSERTED.[id], INSERTED.[name], INSERTED.[rating], INSERTED.[active] INTO @out ([id], [name], [rating], [active])
VALUES (CAST(@p1 AS nvarchar(100)), CAST(@p2 AS decimal(5,2))), (CAST(@p3 AS nvarchar(100)), DEFAULT);
SELECT (
  SELECT CAST((
    SELECT COUNT(*)
    FROM @out
  ) AS int) AS [affected_rows], JSON_QUERY(ISNULL((
    SELECT [t0].[id] AS [id], [t0].[name] AS [name], JSON_QUERY(ISNULL((
      SELECT [t2].[title] AS [title]
      FROM [dbo].[article] AS [t2]
      WHERE ([t0].[id] = [t2].[author_id])
      FOR JSON PATH, INCLUDE_NULL_VALUES
    ), N'[]')) AS [articles]
    FROM @out AS [t0]
    FOR JSON PATH, INCLUDE_NULL_VALUES
  ), N'[]')) AS [returning], @p4 AS [__typename]
  FOR JSON PATH, INCLUDE_NULL_VALUES, WITHOUT_ARRAY_WRAPPER
) AS [root];
COMMIT TRANSACTION
-- params: [{"kind":"literal","value":"Ann","query":true},{"kind":"literal","value":"4.5","query":true},{"kind":"literal","value":"Bo","query":true},{"kind":"literal","value":"author_mutation_response","query":true}]
