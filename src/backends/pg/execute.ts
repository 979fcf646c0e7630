/**
 * Running compiled statements on a source from the front thread. The `json` result
 * column comes back as PostgreSQL's text, never parsed: it is written to the client
 * as it is.
 */
import pg from 'pg';
import type { JsonObject } from '../../util/decode.js';
import type { PoolLimits, PoolMeter, RunStatement, SourceConnection, StatementDeadline } from '../faces/runtime.js';
import { createPool } from './connection.js';
import { PreparedStatements } from './prepared-statements.js';
import { recordSession } from './event-triggers.js';
import { cancelAtDeadline } from './statement-cancel.js';

const passed = () => new Error('the request passed its time limit');

const JSON_OID = 114;

/** Every type as pg parses it, except json, which stays text. */
const rawJsonTypes = {
  getTypeParser: (oid: number, format?: string) => (oid === JSON_OID ? (v: string) => v : pg.types.getTypeParser(oid, format as 'text')),
} as pg.CustomTypesConfig;

/** Mutation statements read every value as text: it goes back in as a parameter or out as JSON. */
const allText = { getTypeParser: () => (v: string) => v } as unknown as pg.CustomTypesConfig;

/** Prepared statements kept per pooled connection. */
const STATEMENTS_PER_CONNECTION = 256;

/** What ends before a connection goes back to the pool: the deallocation of a prepared statement, then the deadline's watch (a cancel it sent lands first). */
async function afterStatement(deallocating: Promise<void> | undefined, disarm: (() => Promise<void>) | null): Promise<void> {
  try {
    await deallocating;
  } finally {
    if (disarm) await disarm();
  }
}

export class PgSourceConnection implements SourceConnection {
  readonly pool: pg.Pool;
  private readonly prepared = new PreparedStatements(STATEMENTS_PER_CONNECTION);

  constructor(
    configuration: JsonObject,
    limits?: PoolLimits,
    private readonly meter?: PoolMeter,
  ) {
    this.pool = createPool(configuration, process.env, limits, meter);
  }

  /**
   * Hands `use` a connection of the pool, in node-postgres's callback form (no promise); with a
   * meter (metrics on), the wait is told, else nothing is measured. `use` must release it.
   */
  private connect(use: (client: pg.PoolClient) => void, fail: (e: unknown) => void): void {
    const meter = this.meter;
    const asked = meter === undefined ? 0 : performance.now();
    this.pool.connect((error, client) => {
      if (error || client === undefined) return fail(error);
      meter?.waited((performance.now() - asked) / 1000);
      try {
        use(client);
      } catch (e) {
        client.release();
        fail(e);
      }
    });
  }

  private acquire(): Promise<pg.PoolClient> {
    return new Promise((resolve, reject) => this.connect(resolve, reject));
  }

  /**
   * Runs one statement that returns at most one row whose first column is json; its text, or
   * 'null'. The hot path of every query: one promise, the connection and the statement in
   * node-postgres's callback form (`pool.connect()` and `client.query()` would make one each,
   * measured in bench/RESULTS.md).
   */
  json(text: string, values: unknown[], statement: string | null, deadline?: StatementDeadline): Promise<string> {
    if (deadline?.expired) return Promise.reject(passed());
    return new Promise((resolve, reject) =>
      this.connect((client) => {
        const disarm = deadline === undefined ? null : cancelAtDeadline(this.pool, client, deadline);
        const query = { text, values, name: statement ?? undefined, rowMode: 'array', types: rawJsonTypes };
        client.query<[string | null]>(query, (error: Error | null | undefined, r) => {
          // An SQL error leaves the connection usable (outside a transaction); pg drops a broken one itself.
          const finish = (failure: unknown) => {
            client.release();
            if (failure) reject(failure);
            else resolve(r.rows[0]?.[0] ?? 'null');
          };
          const deallocating = error || !statement ? undefined : this.prepared.used(client, statement);
          if (deallocating === undefined && disarm === null) return finish(error);
          // A deallocation, or a cancel in flight, ends before the connection goes back to the pool.
          afterStatement(deallocating, disarm).then(
            () => finish(error),
            (e: unknown) => finish(error ?? e),
          );
        });
      }, reject),
    );
  }

  /** Runs one statement on its own (autocommit); every value as text. */
  async rows(text: string, values: unknown[], statement: string | null, deadline?: StatementDeadline): Promise<Record<string, string | null>[]> {
    if (deadline?.expired) throw passed();
    const client = await this.acquire();
    const disarm = deadline === undefined ? null : cancelAtDeadline(this.pool, client, deadline);
    try {
      const r = await client.query<Record<string, string | null>>({ text, values, name: statement ?? undefined, types: allText });
      if (statement) await this.prepared.used(client, statement);
      return r.rows;
    } finally {
      if (disarm) await disarm();
      client.release();
    }
  }

  /**
   * Runs `fn` in a transaction (committed when it returns, rolled back when it throws). Past
   * `deadline` the statement running is cancelled, and no later one starts nor commits: a request
   * answered "time limit exceeded" changed nothing.
   */
  async transaction<T>(fn: (run: RunStatement) => Promise<T>, sessionJson?: string, traceJson?: string, deadline?: StatementDeadline): Promise<T> {
    const client = await this.acquire();
    const disarm = deadline === undefined ? null : cancelAtDeadline(this.pool, client, deadline);
    const inTime = () => {
      if (deadline?.expired) throw passed();
    };
    try {
      await client.query('BEGIN');
      // Transaction-local: the event triggers' function reads it (backends/pg/event-triggers.ts).
      if (sessionJson !== undefined) await recordSession(client, sessionJson, traceJson);
      const result = await fn(async (text, values, statement) => {
        inTime();
        const r = await client.query<Record<string, string | null>>({ text, values, name: statement ?? undefined, types: allText });
        if (statement) await this.prepared.used(client, statement);
        return r.rows;
      });
      inTime();
      await client.query('COMMIT');
      return result;
    } catch (e) {
      await client.query('ROLLBACK').catch(() => {});
      throw e;
    } finally {
      if (disarm) await disarm();
      client.release();
    }
  }

  async explain(text: string, values: unknown[]): Promise<string[]> {
    const r = await this.pool.query<[string]>({ text: `EXPLAIN ${text}`, values, rowMode: 'array' });
    return r.rows.map((row) => row[0]);
  }

  close(): Promise<void> {
    return this.pool.end();
  }

  openConnections(): number {
    return this.pool.totalCount;
  }
}
