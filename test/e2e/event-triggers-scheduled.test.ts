/**
 * Cron triggers and one-off scheduled events: delivered at their time with
 * retries, `tolerance_seconds` dead events, listing with filters and counts, invocations,
 * deletion, cron events made ahead, `include_in_metadata` deciding the export.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RecordedCall, type TestServer } from '../auth/http-server.js';
import { freshDatabase, type TestDatabase } from '../support/db.js';
import { startEngine, type Engine } from '../support/engine.js';
import { until } from '../support/events.js';

let db: TestDatabase;
let engine: Engine;
let hook: TestServer;
const failing = new Set<string>();

const hookUrl = (path: string) => hook.url.replace('/auth', `/${path}`);
const callsTo = (path: string) => hook.calls.filter((c: RecordedCall) => c.url === `/${path}`);
const events = async (args: Record<string, unknown>) => (await engine.metadata({ type: 'get_scheduled_events', args })).body;
const statusOf = async (id: string) => (await events({ type: 'one_off' })).events.find((e: { id: string }) => e.id === id)?.status;

beforeAll(async () => {
  db = await freshDatabase();
  hook = await startServer((call) => (failing.has(call.url) ? { status: 500, body: 'no' } : { status: 200, body: '{}' }));
  engine = await startEngine({ SERVICE_GRAPHQL_DATABASE_URL: db.url, SERVICE_GRAPHQL_EVENTS_FETCH_INTERVAL: '200' });
});

afterAll(async () => {
  await engine?.stop();
  await hook?.close();
  await db?.drop();
});

/** A timestamptz in JSON as PostgreSQL writes it: UTC as `+00:00`, trailing zeros of the fraction left out (`.39`, not `.390`). */
const asPostgresWritesIt = (at: Date) => at.toISOString().replace(/\.?0*Z$/, '+00:00');

describe('one-off scheduled events', () => {
  it('delivers at schedule_at, lists the event and its invocation', async () => {
    const at = new Date(Date.now() + 2000);
    const r = await engine.metadata({ type: 'create_scheduled_event', args: { webhook: hookUrl('once'), schedule_at: at.toISOString(), payload: { k: 1 }, comment: 'c', headers: [{ name: 'X-A', value: 'b' }] } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.message).toBe('success');
    const id = r.body.event_id as string;
    await until('the call', () => callsTo('once').length === 1 || undefined);
    expect(Date.now()).toBeGreaterThanOrEqual(at.getTime());
    const call = callsTo('once')[0]!;
    expect(call.headers['x-a']).toBe('b');
    expect(JSON.parse(call.body)).toEqual({ scheduled_time: asPostgresWritesIt(at), payload: { k: 1 }, id, comment: 'c' });
    await until('delivered', async () => (await statusOf(id)) === 'delivered' || undefined);
    const listed = await events({ type: 'one_off', status: ['delivered'], get_rows_count: true });
    expect(listed.count).toBe(1);
    expect(listed.events[0]).toMatchObject({ id, status: 'delivered', tries: 1, payload: { k: 1 } });
    const inv = (await engine.metadata({ type: 'get_scheduled_event_invocations', args: { type: 'one_off', event_id: id, get_rows_count: true } })).body;
    expect(inv.count).toBe(1);
    expect(inv.invocations[0].status).toBe(200);
  });

  it('retries per retry_conf, then error; an event older than its tolerance is dead and never sent', async () => {
    failing.add('/fails');
    const r = await engine.metadata({
      type: 'create_scheduled_event',
      args: { webhook: hookUrl('fails'), schedule_at: new Date().toISOString(), retry_conf: { num_retries: 1, retry_interval_seconds: 1 } },
    });
    await until('error', async () => (await statusOf(r.body.event_id)) === 'error' || undefined);
    expect(callsTo('fails')).toHaveLength(2);
    const old = await engine.metadata({
      type: 'create_scheduled_event',
      args: { webhook: hookUrl('late'), schedule_at: new Date(Date.now() - 3_600_000).toISOString(), retry_conf: { tolerance_seconds: 60 } },
    });
    await until('dead', async () => (await statusOf(old.body.event_id)) === 'dead' || undefined);
    expect(callsTo('late')).toHaveLength(0);
    const page = await events({ type: 'one_off', limit: 1, offset: 1, get_rows_count: true });
    expect(page.count).toBe(3);
    expect(page.events).toHaveLength(1);
  });

  it('deletes an event, and refuses bad input', async () => {
    const r = await engine.metadata({ type: 'create_scheduled_event', args: { webhook: hookUrl('never'), schedule_at: new Date(Date.now() + 3_600_000).toISOString() } });
    expect((await engine.metadata({ type: 'delete_scheduled_event', args: { type: 'one_off', event_id: r.body.event_id } })).status).toBe(200);
    expect(await statusOf(r.body.event_id)).toBeUndefined();
    const again = await engine.metadata({ type: 'delete_scheduled_event', args: { type: 'one_off', event_id: r.body.event_id } });
    expect(again.status).toBe(400);
    const badTime = await engine.metadata({ type: 'create_scheduled_event', args: { webhook: hookUrl('x'), schedule_at: 'tomorrow' } });
    expect(badTime.status).toBe(400);
    expect(badTime.body.path).toBe('$.args.schedule_at');
    const badUrl = await engine.metadata({ type: 'create_scheduled_event', args: { webhook: 'nope', schedule_at: new Date().toISOString() } });
    expect(badUrl.body.path).toBe('$.args.webhook');
  });
});

describe('cron triggers', () => {
  it('refuses an invalid schedule, stores nothing', async () => {
    const r = await engine.metadata({ type: 'create_cron_trigger', args: { name: 'bad', webhook: hookUrl('cron'), schedule: '* * *', include_in_metadata: true } });
    expect(r.status).toBe(400);
    expect(r.body.path).toBe('$.args.schedule');
    expect((await engine.metadata({ type: 'get_cron_triggers', args: {} })).body).toEqual({ cron_triggers: [] });
  });

  it('makes events ahead and delivers them at their time; include_in_metadata decides the export; delete removes its events', { timeout: 90_000 }, async () => {
    const r = await engine.metadata({
      type: 'create_cron_trigger',
      args: { name: 'minutely', webhook: hookUrl('cron'), schedule: '* * * * *', payload: { p: true }, include_in_metadata: false, comment: 'each minute' },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const again = await engine.metadata({ type: 'create_cron_trigger', args: { name: 'minutely', webhook: hookUrl('cron'), schedule: '* * * * *', include_in_metadata: false } });
    expect(again.status).toBe(400);
    expect((await engine.metadata({ type: 'get_cron_triggers', args: {} })).body.cron_triggers.map((t: { name: string }) => t.name)).toEqual(['minutely']);
    expect((await engine.metadata({ type: 'export_metadata', args: {} })).body.cron_triggers).toBeUndefined();
    const made = await until('events made ahead', async () => {
      const e = await events({ type: 'cron', trigger_name: 'minutely', get_rows_count: true });
      return e.count >= 10 ? e : undefined;
    });
    expect(made.events[0]).toMatchObject({ name: 'minutely', status: 'scheduled' });
    const [call] = await until('the first delivery', () => (callsTo('cron').length ? callsTo('cron') : undefined), 70_000);
    const body = JSON.parse(call!.body);
    expect(body).toMatchObject({ name: 'minutely', payload: { p: true }, comment: 'each minute' });
    expect(new Date(body.scheduled_time).getUTCSeconds()).toBe(0);
    // Replaced with include_in_metadata: exported.
    expect((await engine.metadata({ type: 'create_cron_trigger', args: { name: 'minutely', webhook: hookUrl('cron'), schedule: '0 0 * * *', include_in_metadata: true, replace: true } })).status).toBe(200);
    expect((await engine.metadata({ type: 'export_metadata', args: {} })).body.cron_triggers.map((t: { name: string }) => t.name)).toEqual(['minutely']);
    expect((await engine.metadata({ type: 'delete_cron_trigger', args: { name: 'minutely' } })).status).toBe(200);
    // Events a generation under way made meanwhile go too, once the actor hears of the deletion.
    await until('no cron events', async () => ((await events({ type: 'cron', get_rows_count: true })).count === 0 ? true : undefined));
  });
});
