/**
 * A pg source's connection as the executor uses it (`json`): the answer's JSON text as it came,
 * prepared statements held per connection up to their cap (the least recently used one
 * deallocated past it, and prepared again when it comes back), a failed statement leaving its
 * connection usable, a time limit cancelling the statement on the server, and the wait for a
 * connection of a full pool bounded by `pool_timeout` only.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createPool } from '../../src/backends/pg/connection.js';
import { PgSourceConnection } from '../../src/backends/pg/execute.js';
import { Deadline } from '../../src/execute/deadlines.js';
import { freshDatabase, type TestDatabase } from '../support/db.js';

let db: TestDatabase;
let source: PgSourceConnection;

beforeAll(async () => {
  db = await freshDatabase();
  // One connection: every statement runs on it, so what it holds is what the server shows.
  source = new PgSourceConnection({ connection_info: { database_url: db.url } }, { maxConnections: 1, idleTimeoutSeconds: 60 });
});

afterAll(async () => {
  await source?.close();
  await db?.drop();
});

const numbered = (n: number) => source.json(`SELECT json_build_object('n', $1::int, 'statement', ${n})`, [String(n)], `statement_${n}`);
const held = () => source.json(`SELECT json_agg(name ORDER BY name) FROM pg_prepared_statements`, [], null);

describe('a pg source connection', () => {
  it("answers the statement's JSON text as it came, and 'null' for no row", async () => {
    expect(await source.json(`SELECT '{"a" : 1}'::json`, [], null)).toBe('{"a" : 1}');
    expect(await source.json("SELECT '1'::json WHERE false", [], null)).toBe('null');
  });

  it('holds at most 256 prepared statements per connection, dropping the least recently used', async () => {
    for (let n = 0; n < 256; n++) expect(JSON.parse(await numbered(n))).toEqual({ n, statement: n });
    // The first one used again: the second is now the least recently used.
    await numbered(0);
    expect(JSON.parse(await numbered(256))).toEqual({ n: 256, statement: 256 });
    const names = JSON.parse(await held()) as string[];
    expect(names).toHaveLength(256);
    expect(names).toContain('statement_0');
    expect(names).not.toContain('statement_1');
    // A deallocated statement comes back: prepared again, same answer.
    expect(JSON.parse(await numbered(1))).toEqual({ n: 1, statement: 1 });
    expect(JSON.parse(await held())).toContain('statement_1');
  });

  it('fails a statement with the database error and keeps the connection usable', async () => {
    await expect(source.json('SELECT 1/0', [], null)).rejects.toThrow(/division by zero/);
    await expect(source.json('SELECT $1::int', ['x'], 'statement_bad')).rejects.toThrow(/invalid input syntax/);
    expect(await source.json("SELECT '2'::json", [], null)).toBe('2');
  });

  it('cancels the statement on the server at the deadline, and the connection goes back idle', async () => {
    const deadline = new Deadline(performance.now() + 200, 0.2);
    setTimeout(() => deadline.expire(), 200);
    const started = performance.now();
    await expect(source.json('SELECT pg_sleep(5)::text::json', [], null, deadline)).rejects.toThrow(/cancel/);
    expect(performance.now() - started).toBeLessThan(3000);
    expect(await source.json("SELECT '3'::json", [], null)).toBe('3');
    // An expired deadline runs nothing.
    await expect(source.json("SELECT '4'::json", [], null, deadline)).rejects.toThrow(/time limit/);
  });
});

describe("a full pool's wait for a connection", () => {
  // Timers faked once the connection is held, so that a minute passes at once; the sockets are real.
  async function waitWith(poolSettings: Record<string, number>, minutes: number) {
    const pool = createPool({ connection_info: { database_url: db.url, pool_settings: { max_connections: 1, ...poolSettings } } });
    const holder = await pool.connect();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      let outcome = 'waiting';
      const waiter = pool.connect().then(
        (client) => { outcome = 'connected'; return client; },
        (e: Error) => { outcome = e.message; return undefined; },
      );
      await vi.advanceTimersByTimeAsync(minutes * 60_000);
      const afterWait = outcome;
      holder.release();
      (await waiter)?.release();
      return { afterWait, outcome };
    } finally {
      vi.useRealTimers();
      await pool.end();
    }
  }

  it('lasts as long as it takes when pool_timeout is not given, as the well-known engine\'s default', async () => {
    expect(await waitWith({}, 5)).toEqual({ afterWait: 'waiting', outcome: 'connected' });
  });

  it('ends at pool_timeout seconds when given', async () => {
    const { afterWait } = await waitWith({ pool_timeout: 2 }, 1 / 30);
    expect(afterWait).toMatch(/timeout exceeded when trying to connect/);
  });
});
