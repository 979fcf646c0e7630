/**
 * Installing event triggers in a PostgreSQL source while another engine installs the same ones,
 * and over an event log an older engine installed.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syncEventTriggers } from '../../src/backends/pg/event-triggers.js';
import type { EventTriggerInstall } from '../../src/metadata/event-triggers.js';
import { freshDatabase, type TestDatabase } from '../support/db.js';

let db: TestDatabase;
let pool: pg.Pool;

const trigger: EventTriggerInstall = {
  name: 'watched_insert',
  table: { schema: 'public', name: 'watched' },
  insert: { columns: '*', payload: '*' },
  triggerOnReplication: false,
};

const installed = async () =>
  (await db.sql(`SELECT tgname FROM pg_trigger WHERE tgrelid = 'watched'::regclass AND NOT tgisinternal`)).rows.map((r) => r.tgname as string);

beforeAll(async () => {
  db = await freshDatabase();
  pool = new pg.Pool({ connectionString: db.url, max: 2 });
  await db.sql('CREATE TABLE watched (id int PRIMARY KEY)');
});

afterAll(async () => {
  await pool.end();
  await db.drop();
});

describe('event triggers in a PostgreSQL source', () => {
  it('installs a trigger another session is creating at the same moment, without failing on it', async () => {
    expect(await syncEventTriggers(pool, [trigger], new Set(), false)).toEqual(new Map());
    await db.sql('DROP TRIGGER "service_event_watched_insert_INSERT" ON watched');
    // Another engine's sync, inside a transaction not yet committed when this one starts.
    const other = new pg.Client({ connectionString: db.url });
    await other.connect();
    try {
      await other.query('BEGIN');
      const batch = [{ s: 'public', n: 'watched', tg: 'service_event_watched_insert_INSERT', install: true, op: 'INSERT', a: 'watched_insert', b: '"*"', c: '"*"', always: false, sig: 'x' }];
      await other.query('SELECT * FROM service_catalog.sync_event_triggers($1::json)', [JSON.stringify(batch)]);
      const ours = syncEventTriggers(pool, [trigger], new Set(), false);
      // Committed while ours waits (within one of its bounded lock waits).
      await new Promise((r) => setTimeout(r, 50));
      await other.query('COMMIT');
      expect(await ours).toEqual(new Map());
    } finally {
      await other.end();
    }
    expect(await installed()).toEqual(['service_event_watched_insert_INSERT']);
  });

  it('brings an event log an older engine installed up to date', async () => {
    // An older engine's sync function: it knows nothing of this trigger.
    await db.sql(`CREATE OR REPLACE FUNCTION service_catalog.sync_event_triggers(changes json) RETURNS TABLE (trigger_name text, error text) LANGUAGE sql AS 'SELECT NULL::text, NULL::text WHERE false'`);
    await db.sql('COMMENT ON FUNCTION service_catalog.sync_event_triggers(json) IS NULL');
    await db.sql('DROP TRIGGER "service_event_watched_insert_INSERT" ON watched');
    expect(await syncEventTriggers(pool, [trigger], new Set(), false)).toEqual(new Map());
    expect(await installed()).toEqual(['service_event_watched_insert_INSERT']);
  });
});
