/**
 * The event log as the trigger-delivery actor leases from it: oldest due events first, within
 * the limit, of the triggers asked for; and a fetch that reads about its limit of the pending
 * index however long the backlog, whatever the planner's statistics say.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONNECTION_SETTINGS, FETCH, PgEventStore } from '../../src/backends/pg/event-log.js';
import { createEventLog } from '../../src/backends/pg/event-triggers.js';
import { freshDatabase, type TestDatabase } from '../support/db.js';

let db: TestDatabase;
let store: PgEventStore;

const capture = (trigger: string) => `CREATE TRIGGER ${trigger} AFTER INSERT ON item FOR EACH ROW EXECUTE FUNCTION service_catalog.capture_event('${trigger}', '"*"', '"*"')`;

beforeAll(async () => {
  db = await freshDatabase();
  const pool = new pg.Pool({ connectionString: db.url, max: 1 });
  await createEventLog(pool);
  await pool.end();
  await db.sql('CREATE TABLE item (id int PRIMARY KEY)');
  await db.sql(capture('first'));
  await db.sql(capture('second'));
  // Delivered events, and no statistics yet (a log new to a burst: the planner's defaults).
  await db.sql('INSERT INTO item SELECT g FROM generate_series(1, 1000) g');
  await db.sql('UPDATE service_catalog.event_log SET delivered = true');
  // Each statement its own transaction: later ones are younger.
  await db.sql('INSERT INTO item SELECT g FROM generate_series(1001, 1100) g');
  await db.sql('INSERT INTO item SELECT g FROM generate_series(1101, 6000) g');
  store = new PgEventStore({ connection_info: { database_url: db.url } }, 2);
});

afterAll(async () => {
  await store?.close();
  await db?.drop();
});

const lease = (name: string) => ({ name, leaseSeconds: 60, maxConcurrent: 0 });

describe('the PostgreSQL event log', () => {
  it('walks the pending index in order and stops at the limit, however long the backlog', async () => {
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      await client.query(CONNECTION_SETTINGS);
      await client.query('BEGIN');
      const plan = (await client.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${FETCH}`, [['first'], 100, 'explain', [60]])).rows[0]['QUERY PLAN'];
      await client.query('ROLLBACK');
      const nodes: { 'Node Type': string; 'Index Name'?: string; 'Actual Rows': number }[] = [];
      const walk = (n: { Plans?: unknown[] } & (typeof nodes)[number]) => (nodes.push(n), n.Plans?.forEach((p) => walk(p as typeof n)));
      walk(plan[0].Plan);
      expect(nodes.filter((n) => n['Node Type'] === 'Sort')).toEqual([]);
      const scan = nodes.find((n) => n['Index Name'] === 'event_log_pending');
      // Its 100 among the other trigger's events, not the 10,000 pending.
      expect(scan?.['Actual Rows']).toBeLessThanOrEqual(200);
    } finally {
      await client.end();
    }
  });

  it('leases the oldest due events of the triggers asked for, within the limit, each once', async () => {
    const first = await store.fetch([lease('first')], 100, 'one');
    expect(first.map((e) => e.trigger)).toEqual(Array(100).fill('first'));
    const ids = await db.sql(`SELECT payload #>> '{data,new,id}' AS id FROM service_catalog.event_log WHERE id = ANY($1::uuid[])`, [first.map((e) => e.id)]);
    expect(ids.rows.map((r) => Number(r.id)).sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, i) => 1001 + i));
    // Another instance takes the next ones, not these.
    const next = await store.fetch([lease('first')], 50, 'two');
    expect(next).toHaveLength(50);
    expect(next.filter((e) => first.some((f) => f.id === e.id))).toEqual([]);
  });
});
