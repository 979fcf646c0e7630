/**
 * A small pool of `tedious` connections (a connection runs one request at a time): up to
 * `max` open, idle ones closed after `idleMs`, waiters served in order. A connection that
 * fails is dropped, never handed out again.
 */
import type { Connection } from 'tedious';

// The driver is loaded when a SQL Server source first connects: threads that never meet one
// (every compiler and multiplexer thread of a PostgreSQL-only engine) do not pay for it.
let driver: Promise<typeof import('tedious')> | null = null;
const tedious = () => (driver ??= import('tedious'));
import type { ConnectionTarget } from './configuration.js';
import { isRequestFailure } from './errors.js';

export type Row = Record<string, unknown>;

interface Idle {
  connection: Connection;
  timer: NodeJS.Timeout;
}

async function open(target: ConnectionTarget): Promise<Connection> {
  const { Connection } = await tedious();
  const connection = new Connection({
    server: target.server,
    authentication: { type: 'default', options: { userName: target.user ?? undefined, password: target.password ?? undefined } },
    options: {
      ...(target.instance ? { instanceName: target.instance } : { port: target.port }),
      ...(target.database ? { database: target.database } : {}),
      encrypt: target.encrypt,
      trustServerCertificate: target.trustServerCertificate,
      connectTimeout: target.connectTimeoutMs,
      rowCollectionOnRequestCompletion: false,
      useColumnNames: false,
    },
  });
  return new Promise((resolve, reject) => {
    // A connection that later loses its server reports it here: never an uncaught error.
    connection.on('error', () => {});
    connection.connect((err) => (err ? reject(err) : resolve(connection)));
  });
}

/** The text a value binds as: arrays (a multiplexed query's cohorts) as JSON. */
const asText = (v: unknown): string | null => (v === null || v === undefined ? null : Array.isArray(v) ? JSON.stringify(v) : String(v));

/** Runs one statement; values bind to `@p1`, `@p2`... as text (the statement casts where a type matters). */
export async function execute(connection: Connection, text: string, values: readonly unknown[]): Promise<Row[]> {
  const { Request, TYPES } = await tedious();
  return new Promise((resolve, reject) => {
    const rows: Row[] = [];
    const request = new Request(text, (err) => (err ? reject(err) : resolve(rows)));
    values.forEach((v, i) => request.addParameter(`p${i + 1}`, TYPES.NVarChar, asText(v)));
    request.on('row', (columns: { value: unknown; metadata: { colName: string } }[]) => {
      const row: Row = {};
      for (const c of columns) row[c.metadata.colName] = c.value;
      rows.push(row);
    });
    connection.execSql(request);
  });
}

export class MssqlPool {
  private readonly idle: Idle[] = [];
  private readonly waiting: ((c: Connection | Error) => void)[] = [];
  private open = 0;
  private closed = false;

  constructor(
    private readonly target: () => ConnectionTarget,
    private readonly max: number,
    private readonly idleMs: number,
  ) {}

  async acquire(): Promise<Connection> {
    if (this.closed) throw new Error('the source connection is closed');
    const idle = this.idle.pop();
    if (idle) {
      clearTimeout(idle.timer);
      return idle.connection;
    }
    if (this.open < this.max) {
      this.open++;
      try {
        return await open(this.target());
      } catch (e) {
        this.open--;
        throw e;
      }
    }
    return new Promise((resolve, reject) => this.waiting.push((c) => (c instanceof Error ? reject(c) : resolve(c))));
  }

  /** `broken`: the connection failed (closed rather than reused). */
  release(connection: Connection, broken = false): void {
    if (broken || this.closed) {
      this.open--;
      connection.close();
      const next = this.waiting.shift();
      if (next) this.acquire().then(next, next);
      return;
    }
    const next = this.waiting.shift();
    if (next) return next(connection);
    const timer = setTimeout(() => {
      this.idle.splice(this.idle.findIndex((i) => i.connection === connection), 1);
      this.open--;
      connection.close();
    }, this.idleMs);
    timer.unref();
    this.idle.push({ connection, timer });
  }

  /** Runs `fn` on a connection of the pool. */
  async use<T>(fn: (c: Connection) => Promise<T>): Promise<T> {
    const connection = await this.acquire();
    try {
      const result = await fn(connection);
      this.release(connection);
      return result;
    } catch (e) {
      // A request error leaves the connection usable; a connection error does not.
      this.release(connection, !isRequestFailure(e));
      throw e;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const i of this.idle.splice(0)) {
      clearTimeout(i.timer);
      i.connection.close();
    }
    for (const w of this.waiting.splice(0)) w(new Error('the source connection is closed'));
  }
}
