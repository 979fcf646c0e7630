/**
 * An mssql source's `configuration` (spec "Source": `connection_info.connection_string`, a
 * string or `{from_env}`, and `pool_settings` {max_connections, idle_timeout}): validated
 * when it enters the metadata (a literal connection string is parsed then, so a malformed
 * one is a 400 with its path and nothing is stored), and turned into the driver's settings
 * when the source connects. Connection strings are ODBC or ADO.NET `key=value;` lists, as
 * the well-known engine takes them (`Driver={ODBC Driver 18 for SQL Server};Server=tcp:host,1433;...`).
 */
import { badRequest } from '../../errors/admin.js';
import { int, isObject, ObjectReader, str, type JsonObject } from '../../util/decode.js';

export interface MssqlPoolSettings {
  max_connections?: number;
  idle_timeout?: number;
}

export interface MssqlConnectionInfo {
  connection_string: string | { from_env: string };
  pool_settings?: MssqlPoolSettings;
}

/** What the driver needs from a connection string. */
export interface ConnectionTarget {
  server: string;
  port: number;
  instance: string | null;
  database: string | null;
  user: string | null;
  password: string | null;
  encrypt: boolean;
  trustServerCertificate: boolean;
  connectTimeoutMs: number;
}

export class ConnectionStringError extends Error {}

/** `key=value;` pairs; a value in braces may hold `;` (`}}` is a brace). Keys are case-insensitive. */
export function connectionStringPairs(text: string): Map<string, string> {
  const pairs = new Map<string, string>();
  let i = 0;
  while (i < text.length) {
    const eq = text.indexOf('=', i);
    if (eq < 0) {
      if (text.slice(i).trim() === '') break;
      throw new ConnectionStringError(`expected key=value at ${JSON.stringify(text.slice(i, i + 20))}`);
    }
    const key = text.slice(i, eq).trim().toLowerCase();
    let j = eq + 1;
    while (text[j] === ' ') j++;
    let value: string;
    if (text[j] === '{') {
      value = '';
      j++;
      for (;;) {
        if (j >= text.length) throw new ConnectionStringError(`unterminated braces in the value of ${JSON.stringify(key)}`);
        if (text[j] === '}' && text[j + 1] === '}') (value += '}'), (j += 2);
        else if (text[j] === '}') break;
        else value += text[j++];
      }
      j++;
      const end = text.indexOf(';', j);
      i = end < 0 ? text.length : end + 1;
    } else {
      const end = text.indexOf(';', j);
      value = text.slice(j, end < 0 ? text.length : end).trim();
      i = end < 0 ? text.length : end + 1;
    }
    if (!key) throw new ConnectionStringError('empty key');
    pairs.set(key, value);
  }
  return pairs;
}

const first = (pairs: Map<string, string>, keys: string[]) => keys.map((k) => pairs.get(k)).find((v) => v !== undefined) ?? null;
const yes = (v: string | null, dflt: boolean) => (v === null ? dflt : ['yes', 'true', 'mandatory', 'strict', '1'].includes(v.toLowerCase()));

/** The driver's settings from a connection string; throws `ConnectionStringError` naming what is wrong. */
export function connectionTarget(text: string): ConnectionTarget {
  const pairs = connectionStringPairs(text);
  const server = first(pairs, ['server', 'data source', 'address', 'addr', 'network address']);
  if (!server) throw new ConnectionStringError('the connection string has no Server');
  const m = /^(?:tcp:)?([^,\\]+)(?:\\([^,]+))?(?:,(\d+))?$/i.exec(server.trim());
  if (!m) throw new ConnectionStringError(`cannot read the server ${JSON.stringify(server)}`);
  const timeout = first(pairs, ['connection timeout', 'connect timeout', 'logintimeout', 'login timeout']);
  if (timeout !== null && !/^\d+$/.test(timeout)) throw new ConnectionStringError(`the connection timeout ${JSON.stringify(timeout)} is not a number of seconds`);
  return {
    server: m[1]!.trim(),
    port: m[3] ? Number(m[3]) : 1433,
    instance: m[2] ?? null,
    database: first(pairs, ['database', 'initial catalog']),
    user: first(pairs, ['uid', 'user id', 'user', 'username']),
    password: first(pairs, ['pwd', 'password']),
    // ODBC Driver 18 encrypts by default; `optional` / `no` turn it off.
    encrypt: yes(first(pairs, ['encrypt']), true),
    trustServerCertificate: yes(first(pairs, ['trustservercertificate', 'trust server certificate']), false),
    connectTimeoutMs: (timeout !== null ? Number(timeout) : 15) * 1000,
  };
}

function connectionString(v: unknown, path: string): string | { from_env: string } {
  if (typeof v === 'string') {
    try {
      connectionTarget(v);
    } catch (e) {
      if (e instanceof ConnectionStringError) throw badRequest('parse-failed', `invalid connection string: ${e.message}`, path);
      throw e;
    }
    return v;
  }
  const r = ObjectReader.of(v, path);
  const fromEnv = r.required('from_env', str);
  r.done();
  return { from_env: fromEnv };
}

function poolSettings(v: unknown, path: string): MssqlPoolSettings {
  const r = ObjectReader.of(v, path);
  const out: MssqlPoolSettings = {};
  const max = r.optional('max_connections', int);
  if (max !== undefined) {
    if (max < 1) throw badRequest('parse-failed', 'max_connections must be at least 1', r.at('max_connections'));
    out.max_connections = max;
  }
  const idle = r.optional('idle_timeout', int);
  if (idle !== undefined) {
    if (idle < 0) throw badRequest('parse-failed', 'idle_timeout must be a non-negative integer', r.at('idle_timeout'));
    out.idle_timeout = idle;
  }
  r.done();
  return out;
}

/** Validates an mssql `configuration` and returns it in stored form. */
export function mssqlSourceConfiguration(v: unknown, path: string): JsonObject {
  const r = ObjectReader.of(v, path);
  const ci = ObjectReader.of(r.required('connection_info', (x) => x), r.at('connection_info'));
  const info: MssqlConnectionInfo = { connection_string: ci.required('connection_string', connectionString) };
  const ps = ci.optional('pool_settings', poolSettings);
  if (ps) info.pool_settings = ps;
  ci.done();
  r.done();
  return { connection_info: info as unknown as JsonObject };
}

export const mssqlConnectionInfo = (configuration: JsonObject) => configuration.connection_info as unknown as MssqlConnectionInfo;

/** The connection string, `{from_env}` resolved now (the variable must exist: its name is in the error). */
export function resolveConnectionString(configuration: JsonObject, env: NodeJS.ProcessEnv = process.env): string {
  const cs = mssqlConnectionInfo(configuration).connection_string;
  if (typeof cs === 'string') return cs;
  if (isObject(cs) && typeof cs.from_env === 'string') {
    const value = env[cs.from_env];
    if (value === undefined || value === '') throw new Error(`environment variable "${cs.from_env}" not set`);
    return value;
  }
  throw new Error('invalid connection_string');
}
