/**
 * Installing event triggers while a client holds a lock on the table: the metadata
 * request waits a bounded time for the lock (lock_timeout and retries, as change capture does),
 * so it succeeds once the client lets go, and answers a 409 `lock-timeout` storing nothing when
 * the client keeps the table; it never hangs, and a client locking tables in another order is
 * never aborted by a deadlock.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../auth/http-server.js';
import { freshDatabase, type TestDatabase } from '../support/db.js';
import { startEngine, type Engine } from '../support/engine.js';
import { until } from '../support/events.js';

let db: TestDatabase;
let engine: Engine;
let hook: TestServer;

const hookUrl = (path: string) => hook.url.replace('/auth', `/${path}`);
const create = (name: string, table: string) => engine.metadata({ type: 'pg_create_event_trigger', args: { name, table, webhook: hookUrl(name), insert: { columns: '*' } } });
const databaseTriggers = async (table: string) =>
  (await db.sql(`SELECT tgname FROM pg_trigger WHERE tgrelid = $1::regclass AND tgname LIKE 'service_event_%' ORDER BY 1`, [table])).rows.map((r) => r.tgname as string);
const storedTriggers = async () =>
  ((await engine.metadata({ type: 'export_metadata', args: {} })).body.sources[0].tables as { event_triggers?: { name: string }[] }[]).flatMap((t) => (t.event_triggers ?? []).map((e) => e.name));

/** A client holding `LOCK TABLE` on `tables` in its open transaction until `release()`. */
async function holdLock(tables: string): Promise<{ release(): Promise<void> }> {
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  await client.query('BEGIN');
  await client.query(`LOCK TABLE ${tables} IN ACCESS EXCLUSIVE MODE`);
  return {
    async release() {
      await client.query('COMMIT');
      await client.end();
    },
  };
}

beforeAll(async () => {
  db = await freshDatabase();
  await db.sql('CREATE TABLE soon (id int PRIMARY KEY); CREATE TABLE held (id int PRIMARY KEY); CREATE TABLE pair_a (id int); CREATE TABLE pair_b (id int)');
  hook = await startServer(() => ({ status: 200, body: '{}' }));
  engine = await startEngine({ SERVICE_GRAPHQL_DATABASE_URL: db.url, SERVICE_GRAPHQL_EVENTS_FETCH_INTERVAL: '100' });
  for (const table of ['soon', 'held', 'pair_a', 'pair_b']) expect((await engine.metadata({ type: 'pg_track_table', args: { table } })).status).toBe(200);
});

afterAll(async () => {
  await engine?.stop();
  await hook?.close();
  await db?.drop();
});

describe('event trigger installs and table locks', () => {
  it('succeeds once a client releases the table it held', { timeout: 30_000 }, async () => {
    const lock = await holdLock('soon');
    const answer = create('soon', 'soon');
    await new Promise((r) => setTimeout(r, 1000));
    await lock.release();
    const r = await answer;
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(await databaseTriggers('soon')).toEqual(['service_event_soon_INSERT']);
    await db.sql('INSERT INTO soon VALUES (1)');
    await until('the insert delivered', () => hook.calls.some((c) => c.url === '/soon') || undefined);
  });

  it('answers 409 lock-timeout and stores nothing while a client keeps the table; succeeds after', { timeout: 60_000 }, async () => {
    const lock = await holdLock('held');
    const started = Date.now();
    try {
      const r = await create('held', 'held');
      expect(r.status, JSON.stringify(r.body)).toBe(409);
      expect(r.body).toMatchObject({ code: 'lock-timeout', path: '$', internal: { tables: ['public.held'] } });
      expect(r.body.error).toContain('"public.held" stayed locked by another session');
      // Bounded: five tries of 200 ms, 500 ms apart.
      expect(Date.now() - started).toBeLessThan(20_000);
      expect(await storedTriggers()).toEqual(['soon']);
    } finally {
      await lock.release();
    }
    expect(await databaseTriggers('held')).toEqual([]);
    const again = await create('held', 'held');
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(await databaseTriggers('held')).toEqual(['service_event_held_INSERT']);
    expect(await storedTriggers()).toEqual(['soon', 'held']);
  });

  it('a client locking the tables of a bulk in the other order is never aborted by a deadlock', { timeout: 60_000 }, async () => {
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      // The bulk installs on pair_a then pair_b; the client takes pair_b, then asks for pair_a while the bulk waits.
      await client.query('BEGIN');
      await client.query('LOCK TABLE pair_b IN ACCESS EXCLUSIVE MODE');
      const answer = engine.metadata({
        type: 'bulk',
        args: [
          { type: 'pg_create_event_trigger', args: { name: 'pair_a', table: 'pair_a', webhook: hookUrl('pair'), insert: { columns: '*' } } },
          { type: 'pg_create_event_trigger', args: { name: 'pair_b', table: 'pair_b', webhook: hookUrl('pair'), insert: { columns: '*' } } },
        ],
      });
      await new Promise((r) => setTimeout(r, 300));
      await client.query('LOCK TABLE pair_a IN ACCESS EXCLUSIVE MODE');
      await client.query('COMMIT');
      const r = await answer;
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    } finally {
      await client.end();
    }
    expect([...(await databaseTriggers('pair_a')), ...(await databaseTriggers('pair_b'))]).toEqual(['service_event_pair_a_INSERT', 'service_event_pair_b_INSERT']);
  });
});
