/**
 * Event triggers: request and response transforms on deliveries, a
 * transform that fails recorded on its invocation, log cleanup by hand, on a schedule with
 * pause and resume, and the automatic retention of delivered events.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, startServer, type TestServer } from '../auth/http-server.js';
import { freshDatabase, type TestDatabase } from '../support/db.js';
import { startEngine, type Engine } from '../support/engine.js';
import { eventRows as eventRowsOf, invocationRows, until } from '../support/events.js';

let db: TestDatabase;
let engine: Engine;
let hook: TestServer;

const hookUrl = (path: string) => hook.url.replace('/auth', `/${path}`);
const callsTo = (path: string) => hook.calls.filter((c) => c.url.split('?')[0]!.startsWith(`/${path}`));
const env = { SERVICE_GRAPHQL_EVENTS_FETCH_INTERVAL: '100' };


const eventRows = (trigger: string) => eventRowsOf(db, trigger);
const invocations = (trigger: string) => invocationRows(db, trigger);
const allDelivered = (trigger: string, n: number) => until(`${n} delivered`, async () => ((await eventRows(trigger)).filter((e) => e.delivered).length >= n ? true : undefined));

beforeAll(async () => {
  db = await freshDatabase();
  await db.sql(`CREATE TABLE item (id int PRIMARY KEY, name text)`);
  hook = await startServer(() => json(200, { status: 'fine' }));
  engine = await startEngine({ SERVICE_GRAPHQL_DATABASE_URL: db.url, ...env });
  expect((await engine.metadata({ type: 'pg_track_table', args: { table: 'item' } })).status).toBe(200);
});

afterAll(async () => {
  await engine?.stop();
  await hook?.close();
  await db?.drop();
});

describe('transforms', () => {
  it('transforms method, URL, query parameters, headers and body, and records the transformed response', async () => {
    const r = await engine.metadata({
      type: 'pg_create_event_trigger',
      args: {
        name: 'shaped',
        table: 'item',
        webhook: hookUrl('shaped'),
        insert: { columns: '*' },
        headers: [{ name: 'X-Gone', value: 'x' }],
        request_transform: {
          version: 2,
          template_engine: 'Kriti',
          method: 'PUT',
          url: '{{$base_url}}/items/{{$body.event.data.new.id}}',
          query_params: { op: '{{$body.event.op}}' },
          request_headers: { add_headers: { 'x-op': '{{$body.event.op}}' }, remove_headers: ['X-Gone'] },
          body: { action: 'transform', template: '{"name": {{$body.event.data.new.name}}, "trigger": {{$body.trigger.name}}}' },
        },
        response_transform: { version: 2, template_engine: 'Kriti', body: { action: 'transform', template: '{"seen": {{$body.status}}}' } },
      },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    await db.sql(`INSERT INTO item VALUES (7, 'seven')`);
    const [call] = await until('the call', () => (callsTo('shaped').length ? callsTo('shaped') : undefined));
    expect(call!.method).toBe('PUT');
    expect(call!.url).toBe('/shaped/items/7?op=INSERT');
    expect(call!.headers['x-op']).toBe('INSERT');
    expect(call!.headers['x-gone']).toBeUndefined();
    expect(JSON.parse(call!.body)).toEqual({ name: 'seven', trigger: 'shaped' });
    await allDelivered('shaped', 1);
    const [invocation] = await invocations('shaped');
    expect(invocation.response.data.body).toEqual({ seen: 'fine' });
    expect(invocation.request.method).toBe('PUT');
  });

  it('records a failing transform on the invocation, marks the event error, and goes on delivering', async () => {
    const r = await engine.metadata({
      type: 'pg_create_event_trigger',
      args: {
        name: 'broken',
        table: 'item',
        webhook: hookUrl('broken'),
        update: { columns: '*' },
        retry_conf: { num_retries: 3, interval_sec: 0 },
        request_transform: { version: 2, template_engine: 'Kriti', body: { action: 'transform', template: '{"x": {{ head($body.event.data.new.name) }}}' } },
      },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    // An empty name: head fails on the empty string.
    await db.sql(`UPDATE item SET name = '' WHERE id = 7`);
    await until('error', async () => (await eventRows('broken'))[0]?.error || undefined);
    const [invocation] = await invocations('broken');
    expect(invocation.status).toBeNull();
    expect(invocation.response.type).toBe('client_error');
    expect(invocation.response.data.message).toBe('request transform failed');
    expect(callsTo('broken')).toHaveLength(0);
    await db.sql(`UPDATE item SET name = 'ok' WHERE id = 7`);
    await until('the next one delivered', () => callsTo('broken').length === 1 || undefined);
    expect(JSON.parse(callsTo('broken')[0]!.body)).toEqual({ x: 'o' });
  });
});

describe('cleanup', () => {
  it('cleanup_event_trigger_logs deletes processed events older than clear_older_than, in batches, invocation logs when asked', async () => {
    for (let i = 100; i < 105; i++) await db.sql(`INSERT INTO item VALUES ($1, 'n')`, [i]);
    await allDelivered('shaped', 6);
    const missing = await engine.metadata({ type: 'cleanup_event_trigger_logs', args: { event_trigger_name: 'shaped' } });
    expect(missing.status).toBe(400);
    expect(missing.body.path).toBe('$.args');
    const recent = await engine.metadata({ type: 'cleanup_event_trigger_logs', args: { event_trigger_name: 'shaped', clear_older_than: 1 } });
    expect(recent.body).toEqual({ deleted_event_logs: 0, deleted_event_invocation_logs: 0 });
    await db.sql(`UPDATE service_catalog.event_log SET created_at = now() - interval '2 hours' WHERE trigger_name = 'shaped'`);
    const kept = await engine.metadata({ type: 'cleanup_event_trigger_logs', args: { event_trigger_name: 'shaped', clear_older_than: 1, batch_size: 2 } });
    expect(kept.body).toEqual({ deleted_event_logs: 6, deleted_event_invocation_logs: 0 });
    expect(await eventRows('shaped')).toHaveLength(0);
    expect(await invocations('shaped')).toHaveLength(6);
  });

  it('pauses and resumes only triggers with a cleanup configuration, and runs the scheduled cleanup', { timeout: 90_000 }, async () => {
    const noConfig = await engine.metadata({ type: 'pause_event_trigger_cleanups', args: { event_triggers: [{ source_name: 'default', event_triggers: ['shaped'] }] } });
    expect(noConfig.status).toBe(400);
    const badCron = await engine.metadata({
      type: 'pg_create_event_trigger',
      args: { name: 'cleaned', table: 'item', webhook: hookUrl('cleaned'), delete: { columns: '*' }, cleanup_config: { schedule: '61 * * * *', clear_older_than: 1 } },
    });
    expect(badCron.status).toBe(400);
    expect(badCron.body.path).toBe('$.args.cleanup_config.schedule');
    const r = await engine.metadata({
      type: 'pg_create_event_trigger',
      args: { name: 'cleaned', table: 'item', webhook: hookUrl('cleaned'), delete: { columns: '*' }, cleanup_config: { schedule: '* * * * *', clear_older_than: 1, clean_invocation_logs: true, paused: true } },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    await db.sql(`DELETE FROM item WHERE id >= 100`);
    await allDelivered('cleaned', 5);
    await db.sql(`UPDATE service_catalog.event_log SET created_at = now() - interval '2 hours' WHERE trigger_name = 'cleaned'`);
    const resumed = await engine.metadata({ type: 'resume_event_trigger_cleanups', args: { event_triggers: [{ source_name: 'default', event_triggers: ['cleaned'] }] } });
    expect(resumed.status).toBe(200);
    const exported = (await engine.metadata({ type: 'export_metadata', args: {} })).body;
    const trigger = exported.sources[0].tables[0].event_triggers.find((t: { name: string }) => t.name === 'cleaned');
    expect(trigger.cleanup_config).toEqual({ schedule: '* * * * *', batch_size: 10000, clear_older_than: 1, timeout: 60, clean_invocation_logs: true, paused: false });
    // At the next minute.
    await until('the scheduled cleanup', async () => ((await eventRows('cleaned')).length === 0 ? true : undefined), 70_000);
    expect(await invocations('cleaned')).toHaveLength(0);
    expect((await engine.metadata({ type: 'pause_event_trigger_cleanups', args: { event_triggers: [{ source_name: 'default', event_triggers: ['cleaned'] }] } })).status).toBe(200);
  });

  it('removes delivered events past the retention without any configuration', async () => {
    await db.sql(`INSERT INTO item VALUES (200, 'old')`);
    await allDelivered('shaped', 1);
    await db.sql(`UPDATE service_catalog.event_log SET created_at = now() - interval '3 hours' WHERE trigger_name = 'shaped'`);
    // Another instance with a 2-hour retention cleans when it connects to the source.
    const other = await startEngine({ SERVICE_GRAPHQL_DATABASE_URL: db.url, ...env, SERVICE_GRAPHQL_EVENTS_RETENTION_HOURS: '2' });
    try {
      await until('the retention', async () => ((await eventRows('shaped')).length === 0 ? true : undefined));
    } finally {
      await other.stop();
    }
  });
});
