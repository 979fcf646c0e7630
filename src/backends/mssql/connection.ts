/**
 * An mssql source's pools: the front thread's (`SourceConnection`: one statement per root
 * field returning its JSON) and the metadata actor's (`AdminConnection`: introspection).
 * The pool opens connections lazily; the admin side connects at once when it introspects,
 * so an unreachable server makes the source inconsistent with the driver's reason.
 */
import type { Connection } from 'tedious';
import type { JsonObject } from '../../util/decode.js';
import type { AdminConnection, AdminTransaction, PoolLimits, RunStatement, SourceConnection } from '../backend.js';
import { connectionTarget, mssqlConnectionInfo, resolveConnectionString } from './configuration.js';
import { introspectMssql } from './introspect.js';
import { execute, MssqlPool } from './pool.js';
import { notSupported } from './translate/context.js';

/** Defaults as the well-known engine has them for SQL Server: 50 connections, idle for 5 s. */
function createPool(configuration: JsonObject, limits?: PoolLimits): MssqlPool {
  const settings = mssqlConnectionInfo(configuration).pool_settings ?? {};
  // Read when a connection opens: a `{from_env}` variable missing then is that connection's error.
  const target = () => connectionTarget(resolveConnectionString(configuration));
  return new MssqlPool(target, limits?.maxConnections ?? settings.max_connections ?? 50, (limits?.idleTimeoutSeconds ?? settings.idle_timeout ?? 5) * 1000);
}

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

  transaction<T>(fn: (run: RunStatement) => Promise<T>): Promise<T> {
    return this.pool.use(async (c) => {
      await inTransaction(c, 'begin');
      try {
        const result = await fn(async (text, values) => asText(await execute(c, text, values)));
        await inTransaction(c, 'commit');
        return result;
      } catch (e) {
        await inTransaction(c, 'rollback').catch(() => {});
        throw e;
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

  /** run_sql and the deprecated DML operations are PostgreSQL's (`/v2/query` names no mssql source). */
  begin(): Promise<AdminTransaction> {
    return Promise.reject(notSupported('run_sql and the data operations of /v2/query'));
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
