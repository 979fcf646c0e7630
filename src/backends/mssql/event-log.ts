/**
 * The event log of a SQL Server source as the trigger-delivery actor and the event commands
 * use it (tables made by `event-triggers.ts`). Due events are leased in batches: the rows are
 * picked WITH (READPAST, UPDLOCK, ROWLOCK), so instances sharing a source skip each other's
 * rows and never take the same event, and an event whose lease is older than its trigger's
 * lease time (an instance that died mid-delivery) is due again; with a cap per trigger, its
 * leases are counted under an application lock (`fetchCappedStatement`). SQL Server has no
 * notifications: new events are found by the actor's fetch interval.
 */
import type { JsonObject } from '../../util/decode.js';
import type { EventRecord, EventStore, FinishedAttempt, LeaseSpec } from '../faces/events.js';
import type { EventStatements } from '../faces/admin.js';
import { HAS_LOG } from './event-triggers.js';
import { createPool } from './connection.js';
import { execute, type MssqlPool } from './pool.js';
import { eventRecord, finishParams } from '../event-triggers-shared.js';

const LOG = '[service_catalog].[event_log]';
const INVOCATIONS = '[service_catalog].[event_invocation_logs]';

/** The lease of the events whose ids the subquery that follows picks, answering each leased event. */
const LEASE = `UPDATE [e] SET [locked] = SYSUTCDATETIME(), [locked_by] = @p2 OUTPUT LOWER(CAST(INSERTED.[id] AS nvarchar(36))) AS [id], INSERTED.[schema_name], INSERTED.[table_name], INSERTED.[trigger_name], INSERTED.[payload], INSERTED.[tries], CONVERT(nvarchar(30), INSERTED.[created_at], 127) AS [created_at] FROM ${LOG} AS [e] WHERE [e].[id] IN`;

/** A trigger's value in $1 (`[t].[value]`: `{name, lease, cap}`). */
const spec = (key: 'name' | 'lease' | 'cap') => (key === 'name' ? `JSON_VALUE([t].[value], N'$.name')` : `CAST(JSON_VALUE([t].[value], N'$.${key}') AS int)`);

/** An event of the log as `alias` that is due: not finished, its retry time come, not under a live lease of `lease` seconds. */
const due = (alias: string, lease: string) =>
  `${alias}.[delivered] = 0 AND ${alias}.[error] = 0 AND ${alias}.[archived] = 0 AND (${alias}.[next_retry_at] IS NULL OR ${alias}.[next_retry_at] <= SYSUTCDATETIME()) AND (${alias}.[locked] IS NULL OR ${alias}.[locked] < DATEADD(second, 0 - ${lease}, SYSUTCDATETIME()))`;

/** `TOP n`: an integer the actor chooses, written in the text (node-sql-parser reads no `TOP (@p)`; the query translator writes its limits the same way). */
const top = (limit: number) => `TOP ${Math.max(1, Math.trunc(limit))}`;

/** Leases up to `limit` due events ($1: the triggers as JSON `[{name, lease}]`, $2: the instance). */
export const fetchStatement = (limit: number) =>
  `${LEASE} (SELECT ${top(limit)} [l].[id] FROM ${LOG} AS [l] WITH (READPAST, UPDLOCK, ROWLOCK) INNER JOIN OPENJSON(@p1) AS [t] ON ${spec('name')} = [l].[trigger_name] WHERE ${due('[l]', spec('lease'))} ORDER BY [l].[created_at])`;

/**
 * The same with a cap on each trigger's events leased at once across instances
 * (`LeaseSpec.maxConcurrent`, 0: none; $1 `[{name, lease, cap}]`), as on PostgreSQL: a
 * trigger's room is its cap less its events under a live lease, whoever holds them (a finished
 * attempt not yet recorded still counts); its due events are numbered by age and those within
 * its room are leased. One transaction: first the `capped` triggers' application locks
 * (`sp_getapplock` owned by the transaction, resources @p3, @p4... in name order, so no
 * deadlock between instances; PostgreSQL's advisory locks), then the lease, a statement of its
 * own that sees the leases the last holder committed: two instances never count the same room.
 * A lock not granted in 10 s fails the fetch (the actor tries again at its next one).
 */
export function fetchCappedStatement(limit: number, capped: number): string {
  const room = `CASE WHEN ${spec('cap')} = 0 THEN ${Math.max(1, Math.trunc(limit))} ELSE ${spec('cap')} - (SELECT COUNT(*) FROM ${LOG} AS [b] WHERE [b].[trigger_name] = ${spec('name')} AND [b].[delivered] = 0 AND [b].[error] = 0 AND [b].[archived] = 0 AND [b].[locked] >= DATEADD(second, 0 - ${spec('lease')}, SYSUTCDATETIME())) END`;
  const rooms = `SELECT ${spec('name')} AS [name], ${spec('lease')} AS [lease], ${room} AS [free] FROM OPENJSON(@p1) AS [t]`;
  const numbered = `SELECT [l].[id], [l].[created_at], [r].[free], ROW_NUMBER() OVER (PARTITION BY [l].[trigger_name] ORDER BY [l].[created_at]) AS [n] FROM ${LOG} AS [l] WITH (READPAST, UPDLOCK, ROWLOCK) INNER JOIN (${rooms}) AS [r] ON [r].[name] = [l].[trigger_name] WHERE ${due('[l]', '[r].[lease]')}`;
  const locks = Array.from({ length: capped }, (_, i) => [
    `EXEC @granted = sp_getapplock @Resource = @p${i + 3}, @LockMode = N'Exclusive', @LockOwner = N'Transaction', @LockTimeout = 10000`,
    `IF @granted < 0 THROW 50000, N'the event cap lock of a trigger was not granted', 1`,
  ]).flat();
  return [
    'SET XACT_ABORT ON',
    'BEGIN TRANSACTION',
    'DECLARE @granted int',
    ...locks,
    `${LEASE} (SELECT ${top(limit)} [d].[id] FROM (${numbered}) AS [d] WHERE [d].[n] <= [d].[free] ORDER BY [d].[created_at])`,
    'COMMIT TRANSACTION',
  ].join(';\n');
}

/** The application lock resource of a capped trigger (names are at most 42 characters: well within 255). */
const capLock = (trigger: string) => `service_catalog.event_cap.${trigger}`;

/** The fetch's statement and values: capped when a trigger has a cap, its lock resources in name order. */
export function leaseRequest(triggers: readonly LeaseSpec[], limit: number, instance: string): { text: string; values: string[] } {
  const capped = triggers.filter((t) => t.maxConcurrent > 0).map((t) => t.name).sort();
  const specs = JSON.stringify(triggers.map((t) => ({ name: t.name, lease: t.leaseSeconds, cap: t.maxConcurrent })));
  if (capped.length === 0) return { text: fetchStatement(limit), values: [specs, instance] };
  return { text: fetchCappedStatement(limit, capped.length), values: [specs, instance, ...capped.map(capLock)] };
}

/** Records an attempt ($1 event, $2 trigger, $3 status, $4 request, $5 response, $6 ms) and moves the event on ($7 delivered, $8 error, $9 retry after seconds, $10 instance). */
export const FINISH = [
  `INSERT INTO ${INVOCATIONS} ([event_id], [trigger_name], [status], [request], [response], [duration_ms]) VALUES (CAST(@p1 AS uniqueidentifier), @p2, CAST(@p3 AS int), @p4, @p5, CAST(@p6 AS int))`,
  `UPDATE ${LOG} SET [locked] = NULL, [locked_by] = NULL, [tries] = [tries] + 1, [delivered] = CAST(@p7 AS bit), [error] = CAST(@p8 AS bit), [next_retry_at] = CASE WHEN @p9 IS NULL THEN NULL ELSE DATEADD(millisecond, CAST(CAST(@p9 AS float) * 1000 AS int), SYSUTCDATETIME()) END WHERE [id] = CAST(@p1 AS uniqueidentifier) AND [locked_by] = @p10`,
].join(';\n');

export const RELEASE = `UPDATE ${LOG} SET [locked] = NULL, [locked_by] = NULL WHERE [locked_by] = @p1 AND [delivered] = 0 AND [error] = 0`;

/** Delivered and archived events (and their invocations) past the retention ($1 hours), a batch ($2) at a time. */
export const RETENTION = [
  'DECLARE @gone TABLE ([id] uniqueidentifier)',
  `DELETE TOP (CAST(@p2 AS int)) FROM ${LOG} OUTPUT DELETED.[id] INTO @gone ([id]) WHERE ([delivered] = 1 OR [archived] = 1) AND [created_at] < DATEADD(hour, 0 - CAST(@p1 AS int), SYSUTCDATETIME())`,
  `DELETE FROM ${INVOCATIONS} WHERE [event_id] IN (SELECT [id] FROM @gone)`,
  'SELECT (SELECT COUNT(*) FROM @gone) AS [n]',
].join(';\n');

/** Statements the event commands run in the request's transaction (see `EventStatements`; @p1... for $1...). */
export const eventStatements: EventStatements = {
  invoke: `INSERT INTO ${LOG} ([schema_name], [table_name], [trigger_name], [payload]) OUTPUT LOWER(CAST(INSERTED.[id] AS nvarchar(36))) AS [id] VALUES (@p1, @p2, @p3, @p4)`,
  redeliver: `UPDATE ${LOG} SET [delivered] = 0, [error] = 0, [tries] = 0, [locked] = NULL, [locked_by] = NULL, [next_retry_at] = NULL OUTPUT INSERTED.[trigger_name] WHERE [id] = CAST(@p1 AS uniqueidentifier)`,
  cleanup: [
    'DECLARE @gone TABLE ([id] uniqueidentifier)',
    'DECLARE @removed TABLE ([id] uniqueidentifier)',
    `DELETE TOP (CAST(@p3 AS int)) FROM ${LOG} OUTPUT DELETED.[id] INTO @gone ([id]) WHERE [trigger_name] = @p1 AND ([delivered] = 1 OR [error] = 1 OR [archived] = 1) AND [created_at] < DATEADD(hour, 0 - CAST(@p2 AS int), SYSUTCDATETIME())`,
    `DELETE FROM ${INVOCATIONS} OUTPUT DELETED.[id] INTO @removed ([id]) WHERE CAST(@p4 AS bit) = 1 AND [event_id] IN (SELECT [id] FROM @gone)`,
    'SELECT (SELECT COUNT(*) FROM @gone) AS [events], (SELECT COUNT(*) FROM @removed) AS [invocations]',
  ].join(';\n'),
  hasLog: HAS_LOG,
};

export class MssqlEventStore implements EventStore {
  private readonly pool: MssqlPool;

  constructor(configuration: JsonObject, maxConnections: number) {
    this.pool = createPool(configuration, { maxConnections, idleTimeoutSeconds: 60 });
  }

  private run(text: string, values: unknown[] = []) {
    return this.pool.use((c) => execute(c, text, values));
  }

  async ready(): Promise<boolean> {
    return Boolean((await this.run(HAS_LOG))[0]?.ready);
  }

  async fetch(triggers: readonly LeaseSpec[], limit: number, instance: string): Promise<EventRecord[]> {
    const { text, values } = leaseRequest(triggers, limit, instance);
    const rows = await this.run(text, values);
    // created_at: datetime2 in UTC, written without its zone.
    return rows.map((row) => eventRecord({ ...row, created_at: `${String(row.created_at)}Z` }));
  }

  /** One batch per attempt: SQL Server's pool keeps them apart (the actor's batches are small there, no notifications). */
  async finish(attempts: readonly FinishedAttempt[], instance: string): Promise<void> {
    for (const { event, invocation, outcome } of attempts) await this.run(FINISH, finishParams(event, invocation, outcome, instance));
  }

  async release(instance: string): Promise<void> {
    await this.run(RELEASE, [instance]);
  }

  async cleanupBatch(trigger: string, olderThanHours: number, batchSize: number, invocations: boolean): Promise<{ events: number; invocations: number }> {
    const [row] = await this.run(eventStatements.cleanup, [trigger, olderThanHours, batchSize, invocations]);
    return { events: Number(row?.events ?? 0), invocations: Number(row?.invocations ?? 0) };
  }

  async removeDelivered(olderThanHours: number, batchSize: number): Promise<number> {
    return Number((await this.run(RETENTION, [olderThanHours, batchSize]))[0]?.n ?? 0);
  }

  /** No notifications on SQL Server: a first fetch now, then the actor's interval. */
  listen(wake: () => void): { close(): Promise<void> } {
    queueMicrotask(wake);
    return { close: async () => {} };
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
