/**
 * Event triggers in a SQL Server source (spec "Event trigger", "Events" 1): the event log
 * (`service_catalog.event_log`, `service_catalog.event_invocation_logs`, as PostgreSQL's) and
 * one AFTER trigger per trigger and operation, in the table's schema, writing one event per
 * changed row in the transaction of the change: the row as JSON (FOR JSON over `inserted` /
 * `deleted`, the payload's columns listed), the operation, and the session variables the
 * engine's mutation transaction put in the session context (NULL for writes from elsewhere).
 * An UPDATE pairs `inserted` and `deleted` on the primary key (a table without one gets no
 * UPDATE trigger: the sync reports why); only a change to one of the operation's columns
 * is an event. `trigger_on_replication` false writes NOT FOR REPLICATION (SQL Server's
 * default for our triggers is to fire for replication agents too: the spec's default true).
 * text, ntext and image columns cannot be read in `inserted`/`deleted`: payloads leave them out.
 * A trigger's definition as SQL Server keeps it (OBJECT_DEFINITION) is the text made here, which
 * is how a sync sees that a trigger is as wanted.
 */
import type { CatalogTable, DatabaseCatalog } from '../../catalog/types.js';
import type { EventOperation, EventTriggerInstall } from '../../metadata/event-triggers.js';
import { MSSQL_DIALECT } from './dialect.js';
import { databaseTriggerName, OPERATIONS as OPS, reconcileTriggers, type Operation as Op } from '../event-triggers-shared.js';

/** The session context key a mutation transaction sets (`connection.ts`). */
export const SESSION_KEY = 'service.session_variables';

const q = (name: string) => `[${name.replace(/]/g, ']]')}]`;
const text = (v: string) => MSSQL_DIALECT.literal(v);

/** Creates the schema and tables once, under an application lock (two instances at once would collide). */
export const CREATE_LOG = [
  'SET XACT_ABORT ON',
  'BEGIN TRANSACTION',
  "EXEC sp_getapplock @Resource = N'service_catalog.event_log', @LockMode = N'Exclusive', @LockOwner = N'Transaction'",
  "IF SCHEMA_ID(N'service_catalog') IS NULL EXEC(N'CREATE SCHEMA [service_catalog]')",
  // No filtered indexes: writing to a table that has one needs QUOTED_IDENTIFIER ON, and the
  // triggers write here from any client's session (sqlcmd's default is OFF).
  `IF OBJECT_ID(N'service_catalog.event_log', N'U') IS NULL BEGIN ${[
    'CREATE TABLE [service_catalog].[event_log] ([id] uniqueidentifier NOT NULL DEFAULT NEWID() PRIMARY KEY, [schema_name] nvarchar(128) NOT NULL, [table_name] nvarchar(128) NOT NULL, [trigger_name] nvarchar(128) NOT NULL, [payload] nvarchar(max) NOT NULL, [delivered] bit NOT NULL DEFAULT 0, [error] bit NOT NULL DEFAULT 0, [tries] int NOT NULL DEFAULT 0, [created_at] datetime2 NOT NULL DEFAULT SYSUTCDATETIME(), [locked] datetime2 NULL, [locked_by] nvarchar(200) NULL, [next_retry_at] datetime2 NULL, [archived] bit NOT NULL DEFAULT 0)',
    'CREATE INDEX [event_log_created] ON [service_catalog].[event_log] ([created_at])',
    'CREATE INDEX [event_log_trigger] ON [service_catalog].[event_log] ([trigger_name], [created_at])',
  ].join('; ')}; END`,
  `IF OBJECT_ID(N'service_catalog.event_invocation_logs', N'U') IS NULL BEGIN ${[
    'CREATE TABLE [service_catalog].[event_invocation_logs] ([id] uniqueidentifier NOT NULL DEFAULT NEWID() PRIMARY KEY, [event_id] uniqueidentifier NOT NULL, [trigger_name] nvarchar(128) NOT NULL, [status] int NULL, [request] nvarchar(max) NULL, [response] nvarchar(max) NULL, [duration_ms] int NULL, [created_at] datetime2 NOT NULL DEFAULT SYSUTCDATETIME())',
    'CREATE INDEX [event_invocation_logs_event] ON [service_catalog].[event_invocation_logs] ([event_id])',
    'CREATE INDEX [event_invocation_logs_trigger] ON [service_catalog].[event_invocation_logs] ([trigger_name], [created_at])',
  ].join('; ')}; END`,
  'COMMIT TRANSACTION',
].join(';\n');

export const HAS_LOG = `SELECT CAST(CASE WHEN OBJECT_ID(N'service_catalog.event_log', N'U') IS NULL THEN 0 ELSE 1 END AS bit) AS [ready]`;

/** This engine's triggers in the database, with their tables and definitions. */
export const INSTALLED = `SELECT tr.[name] AS [trigger], s.[name] AS [schema], o.[name] AS [name], OBJECT_DEFINITION(tr.[object_id]) AS [definition] FROM sys.triggers AS tr INNER JOIN sys.objects AS o ON o.[object_id] = tr.[parent_id] INNER JOIN sys.schemas AS s ON s.[schema_id] = o.[schema_id] WHERE tr.[name] LIKE N'service[_]event[_]%'`;

/** Sets a trigger's pending events aside (it left the metadata): never delivered, removed by the retention. */
export const ARCHIVE = `UPDATE [service_catalog].[event_log] SET [archived] = 1 WHERE [trigger_name] IN (SELECT [value] FROM OPENJSON(@p1)) AND [delivered] = 0 AND [error] = 0 AND [archived] = 0`;

export const dropTrigger = (schema: string, trigger: string) => `DROP TRIGGER IF EXISTS ${q(schema)}.${q(trigger)}`;

/** The columns of a row the trigger can read, as a JSON object (`alias` is `[n]` inserted or `[o]` deleted). */
function rowJson(alias: string, columns: string[]): string {
  const list = columns.length > 0 ? columns.map((c) => `${alias}.${q(c)} AS ${q(c)}`).join(', ') : 'NULL AS [__none]';
  return `JSON_QUERY((SELECT ${list} FOR JSON PATH, INCLUDE_NULL_VALUES, WITHOUT_ARRAY_WRAPPER))`;
}

/** Whether a column differs between the new and the old row (NULLs compared as values). */
const changed = (c: string) => `([n].${q(c)} <> [o].${q(c)} OR ([n].${q(c)} IS NULL AND [o].${q(c)} IS NOT NULL) OR ([n].${q(c)} IS NOT NULL AND [o].${q(c)} IS NULL))`;

/**
 * The CREATE TRIGGER text of one operation of a trigger on `table` (its catalog entry), or why
 * it cannot be made.
 */
export function triggerDefinition(t: EventTriggerInstall, op: Op, spec: EventOperation, table: CatalogTable): { ddl: string } | { error: string } {
  const readable = table.columns.filter((c) => !/^(n?text|image)$/i.test(c.type.display)).map((c) => c.name);
  const payload = spec.payload === '*' ? readable : spec.payload.filter((c) => readable.includes(c));
  const session = `JSON_QUERY(CAST(SESSION_CONTEXT(N'${SESSION_KEY}') AS nvarchar(4000)))`;
  const oldRow = op === 'insert' ? 'NULL' : rowJson('[o]', payload);
  const newRow = op === 'delete' ? 'NULL' : rowJson('[n]', payload);
  const event = `(SELECT N'${OPS[op]}' AS [op], ${oldRow} AS [data.old], ${newRow} AS [data.new], ${session} AS [session_variables], NULL AS [trace_context] FOR JSON PATH, INCLUDE_NULL_VALUES, WITHOUT_ARRAY_WRAPPER)`;
  let from: string;
  if (op === 'insert') from = 'inserted AS [n]';
  else if (op === 'delete') from = 'deleted AS [o]';
  else {
    const pk = table.primaryKey?.columns ?? [];
    if (pk.length === 0) return { error: `an UPDATE event trigger needs a primary key on ${table.schema}.${table.name} (SQL Server pairs the old and new rows on it)` };
    from = `inserted AS [n] INNER JOIN deleted AS [o] ON ${pk.map((c) => `[n].${q(c)} = [o].${q(c)}`).join(' AND ')}`;
    const watched = spec.columns === '*' ? [] : spec.columns.filter((c) => readable.includes(c));
    if (spec.columns !== '*') from += ` WHERE ${watched.length > 0 ? watched.map(changed).join(' OR ') : '1 = 0'}`;
  }
  const insert = `INSERT INTO [service_catalog].[event_log] ([schema_name], [table_name], [trigger_name], [payload]) SELECT ${text(table.schema)}, ${text(table.name)}, ${text(t.name)}, ${event} FROM ${from}`;
  const replication = t.triggerOnReplication ? '' : ' NOT FOR REPLICATION';
  const name = `${q(table.schema)}.${q(databaseTriggerName(t.name, op))}`;
  return { ddl: `CREATE TRIGGER ${name} ON ${q(table.schema)}.${q(table.name)} AFTER ${OPS[op]}${replication} AS\nBEGIN\nSET NOCOUNT ON;\n${insert};\nEND` };
}

/** What a sync does to one database trigger. */
export type TriggerChange = { kind: 'drop'; schema: string; trigger: string } | { kind: 'create'; schema: string; trigger: string; ddl: string };

interface Installed {
  trigger: string;
  schema: string;
  name: string;
  definition: string | null;
}

/**
 * The changes that make the database's triggers those of `triggers` (the catalog gives each
 * table's columns), leaving the triggers named in `keep` alone; `recreate` makes every one
 * again. A trigger's definition is its fingerprint. Triggers that cannot be made come back in
 * `failed`.
 */
export function plannedChanges(triggers: readonly EventTriggerInstall[], catalog: DatabaseCatalog, installed: readonly Installed[], keep: ReadonlySet<string>, recreate: boolean): { changes: TriggerChange[]; failed: Map<string, string>; gone: string[] } {
  const failed = new Map<string, string>();
  const wanted = new Map<string, { schema: string; table: string; fingerprint: string }>();
  for (const t of triggers) {
    const table = catalog.tables.find((c) => c.schema === t.table.schema && c.name === t.table.name);
    for (const op of ['insert', 'update', 'delete'] as const) {
      const spec = t[op];
      if (!spec) continue;
      const trigger = databaseTriggerName(t.name, op);
      const made = table ? triggerDefinition(t, op, spec, table) : { error: `no table ${t.table.schema}.${t.table.name}` };
      if ('error' in made) failed.set(trigger, made.error);
      else wanted.set(trigger, { schema: t.table.schema, table: t.table.name, fingerprint: made.ddl });
    }
  }
  const plan = reconcileTriggers(wanted, installed.map((i) => ({ ...i, table: i.name, fingerprint: i.definition })), new Set(triggers.map((t) => t.name)), keep, recreate);
  const changes: TriggerChange[] = [
    ...plan.drop.map((i): TriggerChange => ({ kind: 'drop', schema: i.schema, trigger: i.trigger })),
    // A trigger made again is dropped first (`connection.ts` drops before each create).
    ...plan.create.map(([trigger, w]): TriggerChange => ({ kind: 'create', schema: w.schema, trigger, ddl: w.fingerprint })),
  ];
  return { changes, failed, gone: plan.gone };
}
