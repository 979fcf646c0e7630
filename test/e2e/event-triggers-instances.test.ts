/**
 * The trigger-delivery actor across instances: two engines on one source
 * deliver every event once; `SERVICE_GRAPHQL_EVENTS_FETCH_INTERVAL=0` delivers nothing; a
 * graceful shutdown gives its leases back at once; the leases of a killed instance are taken
 * again after the lease time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../auth/http-server.js';
import { freshDatabase, type TestDatabase } from '../support/db.js';
import { startEngine, type Engine } from '../support/engine.js';
import { eventRows, until } from '../support/events.js';

let db: TestDatabase;
let hook: TestServer;
const engines: Engine[] = [];
/** Calls to `/slow` hang until released (or the engine's timeout). */
let slowUntil = Number.POSITIVE_INFINITY;

const hookUrl = (path: string) => hook.url.replace('/auth', `/${path}`);
const callsTo = (path: string) => hook.calls.filter((c) => c.url === `/${path}`);

async function engine(env: Record<string, string> = {}): Promise<Engine> {
  // A stop cuts the deliveries still in flight after 1 s (the hanging calls below).
  const e = await startEngine({ SERVICE_GRAPHQL_DATABASE_URL: db.url, SERVICE_GRAPHQL_EVENTS_FETCH_INTERVAL: '100', SERVICE_GRAPHQL_GRACEFUL_SHUTDOWN_TIMEOUT: '1', ...env });
  engines.push(e);
  return e;
}

beforeAll(async () => {
  db = await freshDatabase();
  await db.sql('CREATE TABLE job (id int PRIMARY KEY)');
  hook = await startServer((call) => ({ status: 200, delayMs: call.url === '/slow' ? Math.max(0, Math.min(slowUntil - Date.now(), 20_000)) : 0 }));
});

afterAll(async () => {
  await Promise.all(engines.map((e) => e.stop()));
  await hook?.close();
  await db?.drop();
});

describe('several instances', () => {
  it('two engines deliver every event exactly once; an engine with fetch interval 0 delivers none', { timeout: 60_000 }, async () => {
    const one = await engine();
    const idle = await engine({ SERVICE_GRAPHQL_EVENTS_FETCH_INTERVAL: '0' });
    expect((await one.metadata({ type: 'pg_track_table', args: { table: 'job' } })).status).toBe(200);
    const r = await one.metadata({ type: 'pg_create_event_trigger', args: { name: 'shared', table: 'job', webhook: hookUrl('shared'), insert: { columns: '*' } } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const two = await engine();
    await until('the second engine sees the trigger', async () => (await two.metadata({ type: 'export_metadata', args: {} })).body.sources[0].tables[0].event_triggers?.length === 1 || undefined);
    await db.sql('INSERT INTO job SELECT g FROM generate_series(1, 300) g');
    await until('300 delivered', async () => (await eventRows(db, 'shared')).every((e) => e.delivered) || undefined, 20_000);
    const ids = callsTo('shared').map((c) => JSON.parse(c.body).id);
    expect(ids).toHaveLength(300);
    expect(new Set(ids).size).toBe(300);
    const recorded = await db.sql(`SELECT count(*) AS n, count(DISTINCT event_id) AS events FROM service_catalog.event_invocation_logs WHERE trigger_name = 'shared'`);
    expect(recorded.rows[0]).toEqual({ n: '300', events: '300' });
    const start = Date.now();
    await db.sql('INSERT INTO job SELECT g FROM generate_series(301, 400) g');
    await until('100 more delivered', async () => (await eventRows(db, 'shared')).every((e) => e.delivered) || undefined);
    // Leased in batches and delivered concurrently: promptly, even on a loaded machine.
    expect(Date.now() - start).toBeLessThan(5000);
    await idle.stop();
    await two.stop();
  });

  it('a graceful shutdown gives back the leases of deliveries in flight', async () => {
    const one = engines[0]!;
    const r = await one.metadata({
      type: 'pg_create_event_trigger',
      args: { name: 'slow', table: 'job', webhook: hookUrl('slow'), update: { columns: '*' }, retry_conf: { timeout_sec: 30 } },
    });
    expect(r.status).toBe(200);
    slowUntil = Date.now() + 20_000;
    await db.sql('UPDATE job SET id = id WHERE id = 1');
    await until('the hanging call', () => callsTo('slow').length === 1 || undefined);
    expect((await eventRows(db, 'slow'))[0].locked_by).not.toBeNull();
    await one.stop();
    const [event] = await eventRows(db, 'slow');
    expect(event.locked).toBeNull();
    expect(event.delivered).toBe(false);
    // The cut call is not an attempt: nothing recorded, no try spent.
    expect(event.tries).toBe(0);
    slowUntil = 0;
    await engine();
    await until('delivered by the next engine', async () => (await eventRows(db, 'slow'))[0].delivered || undefined);
  });

  it('the leases of a killed engine are taken again after the lease time', { timeout: 60_000 }, async () => {
    const killed = engines[engines.length - 1]!;
    const r = await killed.metadata({
      type: 'pg_create_event_trigger',
      args: { name: 'dying', table: 'job', webhook: hookUrl('slow'), delete: { columns: '*' }, retry_conf: { timeout_sec: 2 } },
    });
    expect(r.status).toBe(200);
    slowUntil = Date.now() + 20_000;
    const before = callsTo('slow').length;
    await db.sql('DELETE FROM job WHERE id = 2');
    await until('the hanging call', () => callsTo('slow').length === before + 1 || undefined);
    await killed.stop('SIGKILL');
    engines.splice(engines.indexOf(killed), 1);
    expect((await eventRows(db, 'dying'))[0].locked).not.toBeNull();
    slowUntil = 0;
    const killedAt = Date.now();
    await engine();
    await until('delivered after the lease time', async () => (await eventRows(db, 'dying'))[0].delivered || undefined, 30_000);
    // The lease is timeout_sec (2) + 10 s.
    expect(Date.now() - killedAt).toBeGreaterThan(8_000);
  });

  it('kill -9 during a burst: after a restart every event is delivered at least once', { timeout: 90_000 }, async () => {
    await db.sql('CREATE TABLE burst (id int PRIMARY KEY)');
    const first = engines[engines.length - 1]!;
    expect((await first.metadata({ type: 'pg_track_table', args: { table: 'burst' } })).status).toBe(200);
    const r = await first.metadata({
      type: 'pg_create_event_trigger',
      // A short lease (timeout + 10 s); a call timed out on a loaded machine is tried again, not lost.
      args: { name: 'burst', table: 'burst', webhook: hookUrl('burst'), insert: { columns: '*' }, retry_conf: { timeout_sec: 1, num_retries: 5, interval_sec: 1 } },
    });
    expect(r.status).toBe(200);
    await db.sql('INSERT INTO burst SELECT g FROM generate_series(1, 3000) g');
    await until('a part delivered', () => callsTo('burst').length >= 100 || undefined, 20_000);
    await first.stop('SIGKILL');
    engines.splice(engines.indexOf(first), 1);
    const delivered = (await db.sql(`SELECT count(*)::int AS n FROM service_catalog.event_log WHERE trigger_name = 'burst' AND delivered`)).rows[0].n;
    expect(delivered).toBeLessThan(3000);
    await engine();
    await until('all delivered', async () => (await db.sql(`SELECT bool_and(delivered) AS done FROM service_catalog.event_log WHERE trigger_name = 'burst'`)).rows[0].done || undefined, 60_000);
    const ids = new Set(callsTo('burst').map((c) => JSON.parse(c.body).event.data.new.id));
    expect(ids.size).toBe(3000);
  });
});
