/**
 * A pg source's `configuration`: validated when it enters the metadata, turned into
 * a connection pool when the source is resolved.
 */
import pg from 'pg';
import { badRequest } from '../../errors/admin.js';
import { bool, int, isObject, ObjectReader, oneOf, str, type JsonObject } from '../../util/decode.js';
import type { PoolLimits, PoolMeter } from '../faces/runtime.js';

export const ISOLATION_LEVELS = ['read-committed', 'repeatable-read', 'serializable'] as const;
export type IsolationLevel = (typeof ISOLATION_LEVELS)[number];

export interface PoolSettings {
  max_connections?: number;
  total_max_connections?: number;
  idle_timeout?: number;
  retries?: number;
  pool_timeout?: number;
  connection_lifetime?: number;
}

export interface PgConnectionInfo {
  database_url: string | { from_env: string };
  pool_settings?: PoolSettings;
  use_prepared_statements: boolean;
  isolation_level: IsolationLevel;
}

function databaseUrl(v: unknown, path: string): string | { from_env: string } {
  if (typeof v === 'string') return v;
  const r = ObjectReader.of(v, path);
  if (r.has('connection_parameters')) {
    throw badRequest('not-supported', 'connection_parameters are not supported; give database_url as a string or {"from_env": ...}', r.at('connection_parameters'));
  }
  const fromEnv = r.required('from_env', str);
  r.done();
  return { from_env: fromEnv };
}

function poolSettings(v: unknown, path: string): PoolSettings {
  const r = ObjectReader.of(v, path);
  const out: PoolSettings = {};
  const nonNeg = (key: keyof PoolSettings) => {
    const n = r.optional(key, int);
    if (n === undefined) return;
    if (n < 0) throw badRequest('parse-failed', `${key} must be a non-negative integer`, r.at(key));
    out[key] = n;
  };
  (['max_connections', 'total_max_connections', 'idle_timeout', 'retries', 'pool_timeout', 'connection_lifetime'] as const).forEach(nonNeg);
  if (out.max_connections === 0) throw badRequest('parse-failed', 'max_connections must be at least 1', r.at('max_connections'));
  r.done();
  return out;
}

/**
 * Validates a pg `configuration` and returns it in stored form (defaults filled in
 * as the well-known engine exports them).
 */
export function pgSourceConfiguration(v: unknown, path: string): JsonObject {
  const r = ObjectReader.of(v, path);
  const ci = ObjectReader.of(r.required('connection_info', (x) => x), r.at('connection_info'));
  const info: PgConnectionInfo = {
    database_url: ci.required('database_url', databaseUrl),
    use_prepared_statements: ci.withDefault('use_prepared_statements', bool, false),
    isolation_level: ci.withDefault('isolation_level', oneOf(ISOLATION_LEVELS, 'isolation level'), 'read-committed'),
  };
  const ps = ci.optional('pool_settings', poolSettings);
  if (ps) info.pool_settings = ps;
  ci.ignore('ssl_configuration');
  ci.done();
  const out: JsonObject = { connection_info: info as unknown as JsonObject };
  for (const key of ['read_replicas', 'extensions_schema', 'connection_template'] as const) {
    const x = r.optional(key, (y) => y);
    if (x !== undefined) out[key] = x as JsonObject;
  }
  r.done();
  return out;
}

export class SourceConfigError extends Error {}

/** Resolves `{from_env}` now: the variable must exist (its name is in the error). */
export function resolveDatabaseUrl(configuration: JsonObject, env: NodeJS.ProcessEnv = process.env): string {
  const info = configuration.connection_info;
  const url = isObject(info) ? info.database_url : undefined;
  if (typeof url === 'string') return url;
  if (isObject(url) && typeof url.from_env === 'string') {
    const value = env[url.from_env];
    if (value === undefined || value === '') throw new SourceConfigError(`environment variable "${url.from_env}" not set`);
    return value;
  }
  throw new SourceConfigError('invalid database_url');
}

export function connectionInfo(configuration: JsonObject): PgConnectionInfo {
  return configuration.connection_info as unknown as PgConnectionInfo;
}

/**
 * Making a connection gives up after this long. The pool's own timeout is `pool_timeout`, the wait
 * for a connection of a full pool, which the well-known engine leaves unbounded by default; pg-pool
 * gives its one `connectionTimeoutMillis` to both, so the connection's bound is set on the client.
 */
const CONNECT_TIMEOUT_MS = 10_000;

class BoundedClient extends pg.Client {
  constructor(config?: pg.ClientConfig) {
    super({ ...config, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  }
}

/** A client that knows when it was made: its pool makes it just before connecting it (`connected` below). */
class StampedClient extends BoundedClient {
  readonly madeAt = performance.now();
}

/** `meter`: told the time each new connection took, its `SET jit` included (metrics on; else nothing is measured). */
export function createPool(configuration: JsonObject, env: NodeJS.ProcessEnv = process.env, limits?: PoolLimits, meter?: PoolMeter): pg.Pool {
  const url = resolveDatabaseUrl(configuration, env);
  const ps = connectionInfo(configuration).pool_settings ?? {};
  const connected = meter && ((client: pg.ClientBase) => meter.connected((performance.now() - (client as StampedClient).madeAt) / 1000));
  const pool = new pg.Pool({
    Client: meter ? StampedClient : BoundedClient,
    connectionString: url,
    max: limits?.maxConnections ?? ps.max_connections ?? 50,
    idleTimeoutMillis: (limits?.idleTimeoutSeconds ?? ps.idle_timeout ?? 180) * 1000,
    // Unset (or 0): wait as long as it takes, as the well-known engine's default ("forever"); it
    // also spares the timer pg-pool arms and clears for every connection it hands out.
    connectionTimeoutMillis: (ps.pool_timeout ?? 0) * 1000,
    maxLifetimeSeconds: ps.connection_lifetime ?? 600,
    // JIT off for the engine's sessions: generated statements (nested json_agg subqueries) pass
    // jit_above_cost on estimates alone, and JIT-compiling them on every run cost 850 ms against
    // 12 ms for a 12-level query on Debian's PostgreSQL 15 (jit is on by default from version 12).
    // Run before the client is handed out; a server without the setting keeps its default.
    onConnect: (client) => client.query('SET jit = off').then(
      () => connected?.(client),
      () => connected?.(client),
    ),
  });
  // An idle client that loses its server must not crash the thread.
  pool.on('error', () => {});
  return pool;
}

export function beginStatement(configuration: JsonObject, readOnly = false): string {
  const level = connectionInfo(configuration).isolation_level.replace('-', ' ').toUpperCase();
  return `BEGIN ISOLATION LEVEL ${level}${readOnly ? ' READ ONLY' : ''}`;
}
