/**
 * An mssql source's pools: the front thread's (`SourceConnection`: one statement per root
 * field returning its JSON) and the metadata actor's (`AdminConnection`: introspection).
 * The pool opens connections lazily; the admin side connects at once when it introspects,
 * so an unreachable server makes the source inconsistent with the driver's reason.
 */
import type { Connection } from 'tedious';
import type { JsonObject } from '../../util/decode.js';
import type { AdminConnection, AdminTransaction, EventTriggerSyncFailure } from '../faces/admin.js';
import type { PoolLimits, RunStatement, SourceConnection } from '../faces/runtime.js';
import type { EventTriggerInstall } from '../../metadata/event-triggers.js';
import type { QualifiedName } from '../../catalog/types.js';
import { archivable, databaseTriggerName } from '../event-triggers-shared.js';
import { ARCHIVE, CREATE_LOG, dropTrigger, HAS_LOG, INSTALLED, plannedChanges, SESSION_KEY } from './event-triggers.js';
import { logger } from '../../log.js';
import { connectionTarget, mssqlConnectionInfo, resolveConnectionString } from './configuration.js';
import { introspectMssql } from './introspect.js';
import { execute, MssqlPool, type Row } from './pool.js';
import { notSupported } from './translate/context.js';

const log = logger('event-trigger');

/** Defaults as the well-known engine has them for SQL Server: 50 connections, idle for 5 s. */
export function createPool(configuration: JsonObject, limits?: PoolLimits): MssqlPool {
  const settings = mssqlConnectionInfo(configuration).pool_settings ?? {};
  // Read when a connection opens: a `{from_env}` variable missing then is that connection's error.
  const target = () => connectionTarget(resolveConnectionString(configuration));
  return new MssqlPool(target, limits?.maxConnections ?? settings.max_connections ?? 50, (limits?.idleTimeoutSeconds ?? settings.idle_timeout ?? 5) * 1000);
}

/** Puts the session variables where the event triggers read them (`event-triggers.ts`). */
export const SET_SESSION = `EXEC sp_set_session_context @key = N'${SESSION_KEY}', @value = @p1`;

const asText = (rows: Record<string, unknown>[]) => rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v === null || v === undefined ? null : String(v)])));

export class MssqlSourceConnection implements SourceConnection {
  private readonly pool: MssqlPool;

  constructor(configuration: JsonObject, limits?: PoolLimits) {
    this.pool = createPool(configuration, limits);
  }

  async json(text: string, values: unknown[]): Promise<string> {
    const rows = await this.pool.use((c) => execute(c, text, values));
    const root = rows[0]?.root;
    return root === null || root === undefined ? 'null' : String(root);
  }

  rows: RunStatement = async (text, values) => asText(await this.pool.use((c) => execute(c, text, values)));

  /**
   * `sessionJson`: the session variables the source's event triggers record, put in the session
   * context for the transaction and cleared after it (the connection is reused).
   */
  transaction<T>(fn: (run: RunStatement) => Promise<T>, sessionJson?: string): Promise<T> {
    return this.pool.use(async (c) => {
      if (sessionJson !== undefined) await execute(c, SET_SESSION, [sessionJson]);
      await inTransaction(c, 'begin');
      try {
        const result = await fn(async (text, values) => asText(await execute(c, text, values)));
        await inTransaction(c, 'commit');
        return result;
      } catch (e) {
        await inTransaction(c, 'rollback').catch(() => {});
        throw e;
      } finally {
        if (sessionJson !== undefined) await execute(c, SET_SESSION, [null]).catch(() => {});
      }
    });
  }

  explain(): Promise<string[]> {
    return Promise.reject(notSupported('explain'));
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}

function inTransaction(c: Connection, step: 'begin' | 'commit' | 'rollback'): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = (err?: Error | null) => (err ? reject(err) : resolve());
    if (step === 'begin') c.beginTransaction(done);
    else if (step === 'commit') c.commitTransaction(done);
    else c.rollbackTransaction(done);
  });
}

export class MssqlAdminConnection implements AdminConnection {
  private readonly pool: MssqlPool;

  constructor(configuration: JsonObject) {
    this.pool = new MssqlPool(() => connectionTarget(resolveConnectionString(configuration)), 2, 5000);
  }

  introspect() {
    return this.pool.use((c) => introspectMssql((text) => execute(c, text, [])));
  }

  /** Enum tables (`is_enum`) are a PostgreSQL feature here: none on SQL Server. */
  async loadEnumValues() {
    return {};
  }

  /** A transaction for the event commands' statements (run_sql and the DML operations are PostgreSQL's). */
  async begin(): Promise<AdminTransaction> {
    const c = await this.pool.acquire();
    try {
      await inTransaction(c, 'begin');
    } catch (e) {
      this.pool.release(c, true);
      throw e;
    }
    return new MssqlAdminTransaction(c, (broken) => this.pool.release(c, broken));
  }

  syncEventTriggers(triggers: readonly EventTriggerInstall[], keep: ReadonlySet<string>, recreate: boolean): Promise<Map<string, EventTriggerSyncFailure>> {
    return this.pool.use((c) => syncEventTriggers((text, values = []) => execute(c, text, values), triggers, keep, recreate));
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}

class MssqlAdminTransaction implements AdminTransaction {
  constructor(
    private readonly c: Connection,
    private readonly done: (broken: boolean) => void,
  ) {}

  runSql(): Promise<never> {
    return Promise.reject(notSupported('run_sql'));
  }

  mayChangeCatalog(): boolean {
    return false;
  }

  query(text: string, values: unknown[]): Promise<Record<string, unknown>[]> {
    return execute(this.c, text, values);
  }

  introspect() {
    return introspectMssql((text) => execute(this.c, text, []));
  }

  async commit(): Promise<void> {
    try {
      await inTransaction(this.c, 'commit');
      this.done(false);
    } catch (e) {
      this.done(true);
      throw e;
    }
  }

  async rollback(): Promise<void> {
    // A statement that failed under XACT_ABORT may have rolled back already: the connection is dropped then.
    await inTransaction(this.c, 'rollback').then(
      () => this.done(false),
      () => this.done(true),
    );
  }
}

type Run = (text: string, values?: unknown[]) => Promise<Row[]>;

/** `AdminConnection.syncEventTriggers` on one connection (see `event-triggers.ts`). */
async function syncEventTriggers(run: Run, triggers: readonly EventTriggerInstall[], keep: ReadonlySet<string>, recreate: boolean): Promise<Map<string, EventTriggerSyncFailure>> {
  const ready = Boolean((await run(HAS_LOG))[0]?.ready);
  if (triggers.length === 0 && !ready) return new Map();
  if (!ready) await run(CREATE_LOG);
  const installed = (await run(INSTALLED)).map((r) => ({ trigger: String(r.trigger), schema: String(r.schema), name: String(r.name), definition: r.definition === null ? null : String(r.definition) }));
  const catalog = await introspectMssql((text) => run(text));
  const { changes, failed, gone } = plannedChanges(triggers, catalog, installed, keep, recreate);
  // Bounded lock waits, as on PostgreSQL: a table another session keeps locked fails its trigger
  // (error 1222). The pooled connection gets the server's default (no bound) back.
  await run(`SET LOCK_TIMEOUT ${LOCK_TIMEOUT_MS}`);
  try {
    for (const change of changes) {
      try {
        await run(dropTrigger(change.schema, change.trigger));
        if (change.kind === 'create') await run(change.ddl);
      } catch (e) {
        failed.set(change.trigger, e instanceof Error ? e.message : String(e));
      }
    }
  } finally {
    await run('SET LOCK_TIMEOUT -1');
  }
  // A trigger gone from the metadata: its pending events are set aside once its database triggers are gone (as on PostgreSQL).
  const archived = archivable(gone, failed.keys());
  if (archived.length > 0) await run(ARCHIVE, [JSON.stringify(archived)]);
  const tables = new Map<string, QualifiedName>(installed.map((i) => [i.trigger, { schema: i.schema, name: i.name }]));
  for (const t of triggers) for (const op of ['insert', 'update', 'delete'] as const) tables.set(databaseTriggerName(t.name, op), t.table);
  const out = new Map<string, EventTriggerSyncFailure>();
  for (const [trigger, error] of failed) {
    log.warn('an event trigger cannot be installed or removed in its source', { trigger, error });
    out.set(trigger, { table: tables.get(trigger) ?? { schema: '', name: '' }, error, lockTimeout: /lock request time ?out/i.test(error) });
  }
  return out;
}

/** How long the sync waits for one table's lock (PostgreSQL's sync retries for about as long). */
const LOCK_TIMEOUT_MS = 3500;
