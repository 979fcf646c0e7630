/**
 * Change-aware refetch, through `graphql-ws` against a running engine and
 * PostgreSQL: with a refetch interval of 5 s, a multiplexed query whose tables are captured
 * runs no statement while nothing is written, a write is pushed well within the interval, a
 * write to another table runs nothing, a write to a table a permission reads through a
 * relationship refetches, tracking installs and removes the trigger (also for replace_metadata
 * and a removed source),
 * a renamed table stays captured, a table the engine cannot capture is polled, and a killed
 * LISTEN connection comes back and refetches. Statements are counted in the engine's debug log
 * (`live query refetched`, one line per statement).
 */
import type { Client } from 'graphql-ws';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CHANGE_LISTENER_APPLICATION_NAME } from '../../src/backends/pg/change-capture.js';
import { useEngine } from '../support/fixture.js';
import { replaceTables } from '../support/graphql.js';
import { connect as connectClient, logged as loggedSince, sleep, subscribe } from '../support/graphql-ws.js';

const INTERVAL_MS = 5000;
const fx = useEngine({
  SERVICE_GRAPHQL_LIVE_QUERIES_MULTIPLEXED_REFETCH_INTERVAL: String(INTERVAL_MS),
  SERVICE_GRAPHQL_LOG_LEVEL: 'debug',
  // The multiplexers' `live query refetched` lines (one per statement run).
  SERVICE_GRAPHQL_ENABLED_LOG_TYPES: 'startup, livequery-poller-log',
});
const LIMITED_ROLE = `capture_limited_${process.pid}`;

beforeAll(async () => {
  await fx.db.sql(`CREATE TABLE owner (id int PRIMARY KEY, active boolean NOT NULL);
    CREATE TABLE item (id int PRIMARY KEY, title text NOT NULL, owner_id int NOT NULL REFERENCES owner (id));
    CREATE TABLE other (id int PRIMARY KEY);
    CREATE TABLE locked (id int PRIMARY KEY);
    INSERT INTO owner VALUES (1, true), (2, true);
    INSERT INTO item VALUES (1, 'a', 1), (2, 'b', 2);
    DROP ROLE IF EXISTS ${LIMITED_ROLE};
    CREATE ROLE ${LIMITED_ROLE} LOGIN PASSWORD 'limited';
    GRANT SELECT ON locked TO ${LIMITED_ROLE};`);
  await replaceTables(fx.engine, [
    {
      table: { schema: 'public', name: 'item' },
      object_relationships: [{ name: 'owner', using: { foreign_key_constraint_on: 'owner_id' } }],
      select_permissions: [{ role: 'user', permission: { columns: ['id', 'title'], filter: { owner: { active: { _eq: true } } } } }],
    },
    { table: { schema: 'public', name: 'owner' } },
    { table: { schema: 'public', name: 'other' } },
  ]);
});

afterAll(async () => {
  await fx.db?.sql(`DROP OWNED BY ${LIMITED_ROLE}; DROP ROLE IF EXISTS ${LIMITED_ROLE}`).catch(() => {});
});

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.dispose()));
});

const connect = (headers: Record<string, string> = {}): Client => connectClient(fx.engine, clients, headers);

const statementsSince = (from: number, source = 'default') => loggedSince(fx.engine, 'live query refetched', from).filter((l) => l.source === source).length;
const triggers = async (table: string) =>
  (await fx.db.sql(`SELECT count(*)::int AS n FROM pg_trigger WHERE tgrelid = $1::regclass AND tgname = 'service_change_capture'`, [table])).rows[0].n;

/** The trigger count of a table once the metadata actor's sync (after its answer) is done. */
async function expectTriggers(table: string, n: number): Promise<void> {
  for (let i = 0; i < 100 && (await triggers(table)) !== n; i++) await sleep(50);
  expect(await triggers(table)).toBe(n);
}

/** Waits until the engine listens to the source's changes and its first refetches are over. */
async function captureReady(): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const r = await fx.db.sql(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1`, [CHANGE_LISTENER_APPLICATION_NAME]);
    if (r.rows[0].n > 0) break;
    await sleep(50);
  }
  await sleep(300);
}

const ITEMS = 'subscription { item(order_by: {id: asc}) { id title } }';

describe('change-aware refetch', () => {
  it('installs a statement-level trigger on each tracked table', async () => {
    await expectTriggers('item', 1);
    await expectTriggers('owner', 1);
    await expectTriggers('locked', 0);
  });

  it('runs no statement while nothing is written, and pushes a write well within the interval', async () => {
    const s = subscribe(connect(), ITEMS);
    expect(await s.next()).toEqual({ data: { item: [{ id: 1, title: 'a' }, { id: 2, title: 'b' }] } });
    await captureReady();
    const from = fx.engine.logs.length;
    await sleep(INTERVAL_MS + 1000);
    expect(statementsSince(from)).toBe(0);

    const start = Date.now();
    await fx.db.sql(`UPDATE item SET title = 'c' WHERE id = 1`);
    expect(await s.next(INTERVAL_MS)).toEqual({ data: { item: [{ id: 1, title: 'c' }, { id: 2, title: 'b' }] } });
    expect(Date.now() - start).toBeLessThan(1000);
    // Coalesced: a query runs at most once per interval, which is the ceiling.
    await fx.db.sql(`UPDATE item SET title = 'a' WHERE id = 1`);
    expect(await s.next(INTERVAL_MS + 1000)).toEqual({ data: { item: [{ id: 1, title: 'a' }, { id: 2, title: 'b' }] } });
    expect(Date.now() - start).toBeGreaterThan(INTERVAL_MS - 500);
  }, 20_000);

  it("gives a new subscriber of a cohort its last result, with no statement, while nothing was written; after a write, a fresh one", async () => {
    const first = subscribe(connect(), ITEMS);
    const result = { data: { item: [{ id: 1, title: 'a' }, { id: 2, title: 'b' }] } };
    expect(await first.next()).toEqual(result);
    await captureReady();
    let from = fx.engine.logs.length;
    const second = subscribe(connect(), ITEMS);
    expect(await second.next()).toEqual(result);
    expect(statementsSince(from)).toBe(0);

    await fx.db.sql(`UPDATE item SET title = 'c' WHERE id = 1`);
    const changed = { data: { item: [{ id: 1, title: 'c' }, { id: 2, title: 'b' }] } };
    expect(await first.next()).toEqual(changed);
    expect(await second.next()).toEqual(changed);
    from = fx.engine.logs.length;
    const third = subscribe(connect(), ITEMS);
    expect(await third.next()).toEqual(changed);
    expect(statementsSince(from)).toBe(0);
    await fx.db.sql(`UPDATE item SET title = 'a' WHERE id = 1`);
  }, 20_000);

  it('runs nothing for a write to a table the query does not read', async () => {
    const s = subscribe(connect(), ITEMS);
    await s.next();
    await captureReady();
    const from = fx.engine.logs.length;
    await fx.db.sql(`INSERT INTO other VALUES (1)`);
    await sleep(1500);
    expect(statementsSince(from)).toBe(0);
  });

  it('refetches when a table read through a permission relationship is written', async () => {
    const s = subscribe(connect({ 'x-service-role': 'user' }), ITEMS);
    expect(await s.next()).toEqual({ data: { item: [{ id: 1, title: 'a' }, { id: 2, title: 'b' }] } });
    await captureReady();
    const start = Date.now();
    await fx.db.sql(`UPDATE owner SET active = false WHERE id = 2`);
    expect(await s.next(INTERVAL_MS)).toEqual({ data: { item: [{ id: 1, title: 'a' }] } });
    expect(Date.now() - start).toBeLessThan(1000);
    await fx.db.sql(`UPDATE owner SET active = true WHERE id = 2`);
    expect(await s.next(INTERVAL_MS + 1000)).toEqual({ data: { item: [{ id: 1, title: 'a' }, { id: 2, title: 'b' }] } });
  });

  it('removes the trigger when a table is untracked and installs it when it is tracked', async () => {
    expect((await fx.engine.metadata({ type: 'pg_untrack_table', args: { table: 'other' } })).status).toBe(200);
    await expectTriggers('other', 0);
    expect((await fx.engine.metadata({ type: 'pg_track_table', args: { table: 'other' } })).status).toBe(200);
    await expectTriggers('other', 1);
  });

  it('never deadlocks a client that locks tracked tables in another order while their triggers go in', async () => {
    await fx.db.sql('CREATE TABLE first_t (id int PRIMARY KEY); CREATE TABLE second_t (id int PRIMARY KEY)');
    const client = new pg.Client({ connectionString: fx.db.url });
    await client.connect();
    try {
      // The client holds second_t; the trigger sync (after the answer) takes first_t, then waits for second_t.
      await client.query('BEGIN; LOCK TABLE second_t IN ACCESS EXCLUSIVE MODE');
      const track = (table: string) => ({ type: 'pg_track_table', args: { table } });
      expect((await fx.engine.metadata({ type: 'bulk', args: [track('first_t'), track('second_t')] })).status).toBe(200);
      await sleep(300);
      // Now the client wants first_t too: without a bound on the sync's lock waits, one of the two is a deadlock's victim.
      await client.query('LOCK TABLE first_t IN ACCESS EXCLUSIVE MODE');
      await client.query('COMMIT');
    } finally {
      await client.end();
    }
    await expectTriggers('first_t', 1);
    await expectTriggers('second_t', 1);
  });

  it('reconnects a killed LISTEN connection, refetches, and keeps pushing', async () => {
    const s = subscribe(connect(), ITEMS);
    await s.next();
    await captureReady();
    await fx.db.sql(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1`, [CHANGE_LISTENER_APPLICATION_NAME]);
    // Written while the listener is down: the refetch after it reconnects (or polling) carries it.
    await fx.db.sql(`UPDATE item SET title = 'd' WHERE id = 2`);
    expect(await s.next(INTERVAL_MS + 1000)).toEqual({ data: { item: [{ id: 1, title: 'a' }, { id: 2, title: 'd' }] } });
    const logged = (m: string) => loggedSince(fx.engine, m, 0).length > 0;
    expect(logged('change capture listener disconnected; reconnecting (live queries are polled)')).toBe(true);
    for (let i = 0; i < 100 && !logged('change capture listener reconnected'); i++) await sleep(50);
    expect(logged('change capture listener reconnected')).toBe(true);
    // The refetch that follows the reconnect runs within an interval of it; a write an interval
    // after that is not held back by coalescing.
    await sleep(2 * INTERVAL_MS + 300);
    const start = Date.now();
    await fx.db.sql(`UPDATE item SET title = 'b' WHERE id = 2`);
    expect(await s.next(INTERVAL_MS)).toEqual({ data: { item: [{ id: 1, title: 'a' }, { id: 2, title: 'b' }] } });
    expect(Date.now() - start).toBeLessThan(1000);
  }, 30_000);

  it('polls a table it cannot capture (no privilege to create its trigger), without failing the metadata call', async () => {
    const url = new URL(fx.db.url);
    url.username = LIMITED_ROLE;
    url.password = 'limited';
    const added = await fx.engine.metadata({
      type: 'bulk',
      args: [
        { type: 'pg_add_source', args: { name: 'limited', configuration: { connection_info: { database_url: url.toString() } } } },
        { type: 'pg_track_table', args: { source: 'limited', table: 'locked' } },
      ],
    });
    expect(added.status).toBe(200);
    // The sync runs once the metadata call is answered.
    const refusals = () => loggedSince(fx.engine, 'change capture cannot be installed on a table; its live queries are polled', 0).length;
    for (let i = 0; i < 100 && refusals() === 0; i++) await sleep(50);
    expect(refusals()).toBeGreaterThan(0);
    expect(await triggers('locked')).toBe(0);

    const s = subscribe(connect(), 'subscription { locked { id } }');
    const first = await s.next();
    expect(first).toEqual({ data: { locked: [] } });
    await fx.db.sql(`INSERT INTO locked VALUES (1)`);
    expect(await s.next(INTERVAL_MS + 1000)).toEqual({ data: { locked: [{ id: 1 }] } });
    const from = fx.engine.logs.length;
    await sleep(INTERVAL_MS + 500);
    expect(statementsSince(from, 'limited')).toBeGreaterThan(0);
  }, 30_000);

  it('keeps capturing a table renamed through run_sql', async () => {
    expect((await fx.engine.runSql('ALTER TABLE other RENAME TO renamed')).status).toBe(200);
    await expectTriggers('renamed', 1);
    const s = subscribe(connect(), 'subscription { renamed(order_by: {id: asc}) { id } }');
    expect(await s.next()).toEqual({ data: { renamed: [{ id: 1 }] } });
    await captureReady();
    // The trigger sync's notice may come after the first result (under load it did): the run it
    // causes takes the interval's leading edge, and a write right after it waits for the next.
    await sleep(INTERVAL_MS + 500);
    const start = Date.now();
    await fx.db.sql('INSERT INTO renamed VALUES (2)');
    expect(await s.next(INTERVAL_MS)).toEqual({ data: { renamed: [{ id: 1 }, { id: 2 }] } });
    expect(Date.now() - start).toBeLessThan(1000);
  }, 30_000);

  it('removes the triggers of the tables replace_metadata leaves out', async () => {
    await replaceTables(fx.engine, [{ table: { schema: 'public', name: 'owner' } }]);
    await expectTriggers('renamed', 0);
    await expectTriggers('item', 0);
    await expectTriggers('owner', 1);
  });

  it('removes the triggers of a removed source, except on the tables another source tracks', async () => {
    await fx.db.sql('CREATE TABLE extra (id int PRIMARY KEY)');
    const added = await fx.engine.metadata({
      type: 'bulk',
      args: [
        { type: 'pg_add_source', args: { name: 'second', configuration: { connection_info: { database_url: fx.db.url } }, customization: { root_fields: { namespace: 'second' } } } },
        { type: 'pg_track_table', args: { source: 'second', table: 'extra' } },
        { type: 'pg_track_table', args: { source: 'second', table: 'owner' } },
      ],
    });
    expect(added.status).toBe(200);
    await expectTriggers('extra', 1);
    expect((await fx.engine.metadata({ type: 'pg_drop_source', args: { name: 'second' } })).status).toBe(200);
    await expectTriggers('extra', 0);
    await expectTriggers('owner', 1);
  });
});
