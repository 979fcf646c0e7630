-- a first sync
-- create dbo.service_event_article_changes_INSERT
CREATE TRIGGER [dbo].[service_event_article_changes_INSERT] ON [dbo].[article] AFTER INSERT AS
BEGIN
SET NOCOUNT ON;
INSERT INTO [service_catalog].[event_log] ([schema_name], [table_name], [trigger_name], [payload])
SELECT N'dbo', N'article', N'article_changes', (
  SELECT N'INSERT' AS [op], NULL AS [data.old], JSON_QUERY((
    SELECT [n].[id] AS [id], [n].[title] AS [title], [n].[author_id] AS [author_id], [n].[views] AS [views], [n].[published_at] AS [published_at]
    FOR JSON PATH, INCLUDE_NULL_VALUES, WITHOUT_ARRAY_WRAPPER
  )) AS [data.new], JSON_QUERY(CAST(SESSION_CONTEXT(N'service.session_variables') AS nvarchar(4000))) AS [session_variables], NULL AS [trace_context]
  FOR JSON PATH, INCLUDE_NULL_VALUES, WITHOUT_ARRAY_WRAPPER
)
FROM inserted AS [n];
END
-- create dbo.service_event_article_changes_UPDATE
CREATE TRIGGER [dbo].[service_event_article_changes_UPDATE] ON [dbo].[article] AFTER UPDATE AS
BEGIN
SET NOCOUNT ON;
INSERT INTO [service_catalog].[event_log] ([schema_name], [table_name], [trigger_name], [payload])
SELECT N'dbo', N'article', N'article_changes', (
  SELECT N'UPDATE' AS [op], JSON_QUERY((
    SELECT [o].[id] AS [id], [o].[title] AS [title]
    FOR JSON PATH, INCLUDE_NULL_VALUES, WITHOUT_ARRAY_WRAPPER
  )) AS [data.old], JSON_QUERY((
    SELECT [n].[id] AS [id], [n].[title] AS [title]
    FOR JSON PATH, INCLUDE_NULL_VALUES, WITHOUT_ARRAY_WRAPPER
  )) AS [data.new], JSON_QUERY(CAST(SESSION_CONTEXT(N'service.session_variables') AS nvarchar(4000))) AS [session_variables], NULL AS [trace_context]
  FOR JSON PATH, INCLUDE_NULL_VALUES, WITHOUT_ARRAY_WRAPPER
)
FROM inserted AS [n]
INNER JOIN deleted AS [o] ON [n].[id] = [o].[id]
WHERE ([n].[title] <> [o].[title] OR ([n].[title] IS NULL AND [o].[title] IS NOT NULL) OR ([n].[title] IS NOT NULL AND [o].[title] IS NULL)) OR ([n].[views] <> [o].[views] OR ([n].[views] IS NULL AND [o].[views] IS NOT NULL) OR ([n].[views] IS NOT NULL AND [o].[views] IS NULL));
END
-- create dbo.service_event_article_changes_DELETE
CREATE TRIGGER [dbo].[service_event_article_changes_DELETE] ON [dbo].[article] AFTER DELETE AS
BEGIN
SET NOCOUNT ON;
INSERT INTO [service_catalog].[event_log] ([schema_name], [table_name], [trigger_name], [payload])
SELECT N'dbo', N'article', N'article_changes', (
  SELECT N'DELETE' AS [op], JSON_QUERY((
    SELECT [o].[id] AS [id], [o].[title] AS [title], [o].[author_id] AS [author_id], [o].[views] AS [views], [o].[published_at] AS [published_at]
    FOR JSON PATH, INCLUDE_NULL_VALUES, WITHOUT_ARRAY_WRAPPER
  )) AS [data.old], NULL AS [data.new], JSON_QUERY(CAST(SESSION_CONTEXT(N'service.session_variables') AS nvarchar(4000))) AS [session_variables], NULL AS [trace_context]
  FOR JSON PATH, INCLUDE_NULL_VALUES, WITHOUT_ARRAY_WRAPPER
)
FROM deleted AS [o];
END
-- create dbo.service_event_author_new_INSERT
CREATE TRIGGER [dbo].[service_event_author_new_INSERT] ON [dbo].[author] AFTER INSERT NOT FOR REPLICATION AS
BEGIN
SET NOCOUNT ON;
INSERT INTO [service_catalog].[event_log] ([schema_name], [table_name], [trigger_name], [payload])
SELECT N'dbo', N'author', N'author_new', (
  SELECT N'INSERT' AS [op], NULL AS [data.old], JSON_QUERY((
    SELECT [n].[id] AS [id], [n].[name] AS [name]
    FOR JSON PATH, INCLUDE_NULL_VALUES, WITHOUT_ARRAY_WRAPPER
  )) AS [data.new], JSON_QUERY(CAST(SESSION_CONTEXT(N'service.session_variables') AS nvarchar(4000))) AS [session_variables], NULL AS [trace_context]
  FOR JSON PATH, INCLUDE_NULL_VALUES, WITHOUT_ARRAY_WRAPPER
)
FROM inserted AS [n];
END
-- create sales.service_event_order-updated_UPDATE
CREATE TRIGGER [sales].[service_event_order-updated_UPDATE] ON [sales].[order] AFTER UPDATE AS
BEGIN
SET NOCOUNT ON;
INSERT INTO [service_catalog].[event_log] ([schema_name], [table_name], [trigger_name], [payload])
SELECT N'sales', N'order', N'order-updated', (
  SELECT N'UPDATE' AS [op], JSON_QUERY((
    SELECT [o].[id] AS [id], [o].[author_id] AS [author_id]
    FOR JSON PATH, INCLUDE_NULL_VALUES, WITHOUT_ARRAY_WRAPPER
  )) AS [data.old], JSON_QUERY((
    SELECT [n].[id] AS [id], [n].[author_id] AS [author_id]
    FOR JSON PATH, INCLUDE_NULL_VALUES, WITHOUT_ARRAY_WRAPPER
  )) AS [data.new], JSON_QUERY(CAST(SESSION_CONTEXT(N'service.session_variables') AS nvarchar(4000))) AS [session_variables], NULL AS [trace_context]
  FOR JSON PATH, INCLUDE_NULL_VALUES, WITHOUT_ARRAY_WRAPPER
)
FROM inserted AS [n]
INNER JOIN deleted AS [o] ON [n].[id] = [o].[id];
END
-- cannot make service_event_names_updated_UPDATE: an UPDATE event trigger needs a primary key on dbo.author_names (SQL Server pairs the old and new rows on it)
-- archived: []

-- a sync over installed triggers
-- drop dbo.service_event_dropped_DELETE
-- create dbo.service_event_article_changes_INSERT
-- create dbo.service_event_article_changes_UPDATE
-- create dbo.service_event_article_changes_DELETE
-- create sales.service_event_order-updated_UPDATE
-- cannot make service_event_names_updated_UPDATE: an UPDATE event trigger needs a primary key on dbo.author_names (SQL Server pairs the old and new rows on it)
-- archived: ["dropped"]

-- create log 1
SET XACT_ABORT ON
-- create log 2
BEGIN TRANSACTION
-- create log 3
EXEC sp_getapplock @Resource = N'service_catalog.event_log', @LockMode = N'Exclusive', @LockOwner = N'Transaction'
-- create log 4
IF SCHEMA_ID(N'service_catalog') IS NULL EXEC(N'CREATE SCHEMA [service_catalog]')
-- create log 5
IF OBJECT_ID(N'service_catalog.event_log', N'U') IS NULL BEGIN CREATE TABLE [service_catalog].[event_log] ([id] uniqueidentifier NOT NULL DEFAULT NEWID() PRIMARY KEY, [schema_name] nvarchar(128) NOT NULL, [table_name] nvarchar(128) NOT NULL, [trigger_name] nvarchar(128) NOT NULL, [payload] nvarchar(max) NOT NULL, [delivered] bit NOT NULL DEFAULT 0, [error] bit NOT NULL DEFAULT 0, [tries] int NOT NULL DEFAULT 0, [created_at] datetime2 NOT NULL DEFAULT SYSUTCDATETIME(), [locked] datetime2 NULL, [locked_by] nvarchar(200) NULL, [next_retry_at] datetime2 NULL, [archived] bit NOT NULL DEFAULT 0);
CREATE INDEX [event_log_created] ON [service_catalog].[event_log] ([created_at]);
CREATE INDEX [event_log_trigger] ON [service_catalog].[event_log] ([trigger_name], [created_at]);
END
-- create log 6
IF OBJECT_ID(N'service_catalog.event_invocation_logs', N'U') IS NULL BEGIN CREATE TABLE [service_catalog].[event_invocation_logs] ([id] uniqueidentifier NOT NULL DEFAULT NEWID() PRIMARY KEY, [event_id] uniqueidentifier NOT NULL, [trigger_name] nvarchar(128) NOT NULL, [status] int NULL, [request] nvarchar(max) NULL, [response] nvarchar(max) NULL, [duration_ms] int NULL, [created_at] datetime2 NOT NULL DEFAULT SYSUTCDATETIME());
CREATE INDEX [event_invocation_logs_event] ON [service_catalog].[event_invocation_logs] ([event_id]);
CREATE INDEX [event_invocation_logs_trigger] ON [service_catalog].[event_invocation_logs] ([trigger_name], [created_at]);
END
-- create log 7
COMMIT TRANSACTION
-- has log
SELECT CAST(CASE WHEN OBJECT_ID(N'service_catalog.event_log', N'U') IS NULL THEN 0 ELSE 1 END AS bit) AS [ready]
-- installed triggers
SELECT tr.[name] AS [trigger], s.[name] AS [schema], o.[name] AS [name], OBJECT_DEFINITION(tr.[object_id]) AS [definition]
FROM sys.triggers AS tr
INNER JOIN sys.objects AS o ON o.[object_id] = tr.[parent_id]
INNER JOIN sys.schemas AS s ON s.[schema_id] = o.[schema_id]
WHERE tr.[name] LIKE N'service[_]event[_]%'
-- archive
UPDATE [service_catalog].[event_log]
SET [archived] = 1
WHERE [trigger_name] IN (
  SELECT [value]
  FROM OPENJSON(@p1)
) AND [delivered] = 0 AND [error] = 0 AND [archived] = 0
-- drop trigger
DROP TRIGGER IF EXISTS [dbo].[service_event_article_changes_INSERT]
-- fetch
UPDATE [e]
SET [locked] = SYSUTCDATETIME(), [locked_by] = @p2
OUTPUT LOWER(CAST(INSERTED.[id] AS nvarchar(36))) AS [id], INSERTED.[schema_name], INSERTED.[table_name], INSERTED.[trigger_name], INSERTED.[payload], INSERTED.[tries], CONVERT(nvarchar(30), INSERTED.[created_at], 127) AS [created_at]
FROM [service_catalog].[event_log] AS [e]
WHERE [e].[id] IN (
  SELECT TOP 100 [l].[id]
  FROM [service_catalog].[event_log] AS [l] WITH (READPAST, UPDLOCK, ROWLOCK)
  INNER JOIN OPENJSON(@p1) AS [t] ON JSON_VALUE([t].[value], N'$.name') = [l].[trigger_name]
  WHERE [l].[delivered] = 0 AND [l].[error] = 0 AND [l].[archived] = 0 AND ([l].[next_retry_at] IS NULL OR [l].[next_retry_at] <= SYSUTCDATETIME()) AND ([l].[locked] IS NULL OR [l].[locked] < DATEADD(second, 0 - CAST(JSON_VALUE([t].[value], N'$.lease') AS int), SYSUTCDATETIME()))
  ORDER BY [l].[created_at]
)
-- fetch capped 1
SET XACT_ABORT ON
-- fetch capped 2
BEGIN TRANSACTION
-- fetch capped 3
DECLARE @granted int
-- fetch capped 4
EXEC @granted = sp_getapplock @Resource = @p3, @LockMode = N'Exclusive', @LockOwner = N'Transaction', @LockTimeout = 10000
-- fetch capped 5
IF @granted < 0 THROW 50000, N'the event cap lock of a trigger was not granted', 1
-- fetch capped 6
EXEC @granted = sp_getapplock @Resource = @p4, @LockMode = N'Exclusive', @LockOwner = N'Transaction', @LockTimeout = 10000
-- fetch capped 7
IF @granted < 0 THROW 50000, N'the event cap lock of a trigger was not granted', 1
-- fetch capped 8
UPDATE [e]
SET [locked] = SYSUTCDATETIME(), [locked_by] = @p2
OUTPUT LOWER(CAST(INSERTED.[id] AS nvarchar(36))) AS [id], INSERTED.[schema_name], INSERTED.[table_name], INSERTED.[trigger_name], INSERTED.[payload], INSERTED.[tries], CONVERT(nvarchar(30), INSERTED.[created_at], 127) AS [created_at]
FROM [service_catalog].[event_log] AS [e]
WHERE [e].[id] IN (
  SELECT TOP 100 [d].[id]
  FROM (
    SELECT [l].[id], [l].[created_at], [r].[free], ROW_NUMBER() OVER (PARTITION BY [l].[trigger_name] ORDER BY [l].[created_at]) AS [n]
    FROM [service_catalog].[event_log] AS [l] WITH (READPAST, UPDLOCK, ROWLOCK)
    INNER JOIN (
      SELECT JSON_VALUE([t].[value], N'$.name') AS [name], CAST(JSON_VALUE([t].[value], N'$.lease') AS int) AS [lease], CASE WHEN CAST(JSON_VALUE([t].[value], N'$.cap') AS int) = 0 THEN 100 ELSE CAST(JSON_VALUE([t].[value], N'$.cap') AS int) - (
        SELECT COUNT(*)
        FROM [service_catalog].[event_log] AS [b]
        WHERE [b].[trigger_name] = JSON_VALUE([t].[value], N'$.name') AND [b].[delivered] = 0 AND [b].[error] = 0 AND [b].[archived] = 0 AND [b].[locked] >= DATEADD(second, 0 - CAST(JSON_VALUE([t].[value], N'$.lease') AS int), SYSUTCDATETIME())
      ) END AS [free]
      FROM OPENJSON(@p1) AS [t]
    ) AS [r] ON [r].[name] = [l].[trigger_name]
    WHERE [l].[delivered] = 0 AND [l].[error] = 0 AND [l].[archived] = 0 AND ([l].[next_retry_at] IS NULL OR [l].[next_retry_at] <= SYSUTCDATETIME()) AND ([l].[locked] IS NULL OR [l].[locked] < DATEADD(second, 0 - [r].[lease], SYSUTCDATETIME()))
  ) AS [d]
  WHERE [d].[n] <= [d].[free]
  ORDER BY [d].[created_at]
)
-- fetch capped 9
COMMIT TRANSACTION
-- finish 1
INSERT INTO [service_catalog].[event_invocation_logs] ([event_id], [trigger_name], [status], [request], [response], [duration_ms])
VALUES (CAST(@p1 AS uniqueidentifier), @p2, CAST(@p3 AS int), @p4, @p5, CAST(@p6 AS int))
-- finish 2
UPDATE [service_catalog].[event_log]
SET [locked] = NULL, [locked_by] = NULL, [tries] = [tries] + 1, [delivered] = CAST(@p7 AS bit), [error] = CAST(@p8 AS bit), [next_retry_at] = CASE WHEN @p9 IS NULL THEN NULL ELSE DATEADD(millisecond, CAST(CAST(@p9 AS float) * 1000 AS int), SYSUTCDATETIME()) END
WHERE [id] = CAST(@p1 AS uniqueidentifier) AND [locked_by] = @p10
-- release
UPDATE [service_catalog].[event_log]
SET [locked] = NULL, [locked_by] = NULL
WHERE [locked_by] = @p1 AND [delivered] = 0 AND [error] = 0
-- retention 1
DECLARE @gone TABLE ([id] uniqueidentifier)
-- retention 2
DELETE TOP (CAST(@p2 AS int))
FROM [service_catalog].[event_log]
OUTPUT DELETED.[id] INTO @gone ([id])
WHERE ([delivered] = 1 OR [archived] = 1) AND [created_at] < DATEADD(hour, 0 - CAST(@p1 AS int), SYSUTCDATETIME())
-- retention 3
DELETE FROM [service_catalog].[event_invocation_logs]
WHERE [event_id] IN (
  SELECT [id]
  FROM @gone
)
-- retention 4
SELECT (
  SELECT COUNT(*)
  FROM @gone
) AS [n]
-- invoke
INSERT INTO [service_catalog].[event_log] ([schema_name], [table_name], [trigger_name], [payload])
OUTPUT LOWER(CAST(INSERTED.[id] AS nvarchar(36))) AS [id]
VALUES (@p1, @p2, @p3, @p4)
-- redeliver
UPDATE [service_catalog].[event_log]
SET [delivered] = 0, [error] = 0, [tries] = 0, [locked] = NULL, [locked_by] = NULL, [next_retry_at] = NULL
OUTPUT INSERTED.[trigger_name]
WHERE [id] = CAST(@p1 AS uniqueidentifier)
-- cleanup 1
DECLARE @gone TABLE ([id] uniqueidentifier)
-- cleanup 2
DECLARE @removed TABLE ([id] uniqueidentifier)
-- cleanup 3
DELETE TOP (CAST(@p3 AS int))
FROM [service_catalog].[event_log]
OUTPUT DELETED.[id] INTO @gone ([id])
WHERE [trigger_name] = @p1 AND ([delivered] = 1 OR [error] = 1 OR [archived] = 1) AND [created_at] < DATEADD(hour, 0 - CAST(@p2 AS int), SYSUTCDATETIME())
-- cleanup 4
DELETE FROM [service_catalog].[event_invocation_logs]
OUTPUT DELETED.[id] INTO @removed ([id])
WHERE CAST(@p4 AS bit) = 1 AND [event_id] IN (
  SELECT [id]
  FROM @gone
)
-- cleanup 5
SELECT (
  SELECT COUNT(*)
  FROM @gone
) AS [events], (
  SELECT COUNT(*)
  FROM @removed
) AS [invocations]
-- session variables
EXEC sp_set_session_context @key = N'service.session_variables', @value = @p1
