/**
 * Several engines started at once on one database each install what they need exactly once
 * between them: the metadata store's tables, the change-capture function and triggers, the
 * event log. None of them fails or logs a warning about it.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../support/db.js';
import { startEngine, type Engine } from '../support/engine.js';
import { until } from '../support/events.js';

const databases: TestDatabase[] = [];
const engines: Engine[] = [];

afterAll(async () => {
  await Promise.all(engines.map((e) => e.stop()));
  await Promise.all(databases.map((d) => d.drop()));
});

async function database(): Promise<TestDatabase> {
  const d = await freshDatabase();
  databases.push(d);
  return d;
}

async function startTogether(n: number, env: Record<string, string>): Promise<Engine[]> {
  const started = await Promise.all(Array.from({ length: n }, () => startEngine(env)));
  engines.push(...started);
  return started;
}

/** Log lines at warn or error level. */
const complaints = (e: Engine) =>
  e.logs.flatMap((line) => {
    try {
      const entry = JSON.parse(line) as { level?: string };
      return entry.level === 'warn' || entry.level === 'error' ? [line] : [];
    } catch {
      return [line];
    }
  });

describe('three engines starting together', () => {
  it('on a new database: one metadata store, every engine serving it', async () => {
    const db = await database();
    const three = await startTogether(3, { SERVICE_GRAPHQL_DATABASE_URL: db.url });
    await db.sql('CREATE TABLE thing (id int PRIMARY KEY)');
    expect((await three[0]!.metadata({ type: 'pg_track_table', args: { table: 'thing' } })).status).toBe(200);
    const served = async (e: Engine) => !(await e.post('/v1/graphql', { query: '{ thing { id } }' })).body.errors || undefined;
    for (const e of three) await until('every engine serves the table', () => served(e), 5000);
    expect(three.flatMap(complaints)).toEqual([]);
  });

  it('on a source without change capture or event log: all three install them, none complains', { timeout: 60_000 }, async () => {
    const store = await database();
    const source = await database();
    const env = { SERVICE_GRAPHQL_METADATA_DATABASE_URL: store.url, SERVICE_GRAPHQL_DATABASE_URL: source.url };
    await source.sql('CREATE TABLE watched (id int PRIMARY KEY)');
    const first = await startEngine(env);
    engines.push(first);
    expect((await first.metadata({ type: 'pg_track_table', args: { table: 'watched' } })).status).toBe(200);
    const trigger = { name: 'watched_insert', table: 'watched', webhook: 'http://127.0.0.1:9/hook', insert: { columns: '*' } };
    expect((await first.metadata({ type: 'pg_create_event_trigger', args: trigger })).status).toBe(200);
    await first.stop();
    // As on a source restored without this engine's objects: every engine finds them missing.
    await source.sql('DROP SCHEMA service_catalog CASCADE');

    const three = await startTogether(3, { ...env, SERVICE_GRAPHQL_EVENTS_FETCH_INTERVAL: '0' });
    const triggers = async () =>
      (await source.sql(`SELECT tgname FROM pg_trigger WHERE tgrelid = 'watched'::regclass AND NOT tgisinternal ORDER BY tgname`)).rows.map((r) => r.tgname);
    await until('the triggers are back', async () => ((await triggers()).length === 2 ? true : undefined), 10_000);
    expect(await triggers()).toEqual(['service_change_capture', expect.stringMatching(/watched_insert/)]);
    await source.sql('INSERT INTO watched VALUES (1)');
    expect((await source.sql('SELECT count(*)::int AS n FROM service_catalog.event_log')).rows[0].n).toBe(1);
    expect(three.flatMap(complaints)).toEqual([]);
  });
});
