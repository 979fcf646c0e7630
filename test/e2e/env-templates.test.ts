/**
 * `{{ENV}}` templates in URLs wherever the well-known engine takes them (as action handlers
 * do): an event trigger's webhook, a remote schema's url, a cron trigger's and a one-off
 * scheduled event's webhook. The metadata keeps the template; the engine fills it in from its
 * environment, against real servers started here. A variable not set, or one that makes no
 * http(s) URL, is an inconsistency naming it: refused when added, reported at boot.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RecordedCall, type TestServer } from '../auth/http-server.js';
import { freshDatabase, type TestDatabase } from '../support/db.js';
import { startEngine, type Engine } from '../support/engine.js';
import { until } from '../support/events.js';
import { RemoteGraphQL } from '../support/remote-graphql.js';

let db: TestDatabase;
let engine: Engine;
let hook: TestServer;
const remote = new RemoteGraphQL('type Query { hello: String }', { hello: () => 'world' });

/** The hook server's origin (`http://127.0.0.1:port`): what `{{HOOK_BASE}}` stands for. */
const hookBase = () => hook.url.replace('/auth', '');
const env = (vars: Record<string, string>) => ({ SERVICE_GRAPHQL_DATABASE_URL: db.url, SERVICE_GRAPHQL_EVENTS_FETCH_INTERVAL: '100', SERVICE_GRAPHQL_REMOTE_SCHEMA_RETRY_INTERVAL: '300', ...vars });
const allSet = () => env({ HOOK_BASE: hookBase(), REMOTE_URL: remote.url, REMOTE_ORIGIN: remote.url.replace('/graphql', ''), NOT_A_URL: 'nowhere' });
const callsTo = (path: string) => hook.calls.filter((c: RecordedCall) => c.url === path);
const admin = (type: string, args: unknown) => engine.metadata({ type, args });
const inconsistentObjects = async () => (await admin('get_inconsistent_metadata', {})).body.inconsistent_objects as { type: string; name: string; reason: string }[];

beforeAll(async () => {
  db = await freshDatabase();
  await db.sql('CREATE TABLE thing (id int PRIMARY KEY)');
  hook = await startServer(() => ({ status: 200, body: '{}' }));
  await remote.start();
  engine = await startEngine(allSet());
  expect((await admin('pg_track_table', { table: 'thing' })).status).toBe(200);
});

afterAll(async () => {
  await engine?.stop();
  await hook?.close();
  await remote.stop();
  await db?.drop();
});

describe('templates with their variables set', () => {
  it('a cron trigger takes a template (its first call is checked at the end: it comes within a minute)', async () => {
    const r = await admin('create_cron_trigger', { name: 'minutely', webhook: '{{HOOK_BASE}}/cron', schedule: '* * * * *', include_in_metadata: true });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
  });

  it('an event trigger delivers to the webhook its template makes', async () => {
    const r = await admin('pg_create_event_trigger', { name: 'templated', table: 'thing', webhook: '{{HOOK_BASE}}/events', insert: { columns: '*' } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    await db.sql('INSERT INTO thing VALUES (1)');
    const [call] = await until('the event', () => (callsTo('/events').length ? callsTo('/events') : undefined));
    expect(JSON.parse(call!.body).event.data.new).toEqual({ id: 1 });
  });

  it('a remote schema is introspected and queried at the url its template makes, with or without a suffix', async () => {
    for (const [name, url] of [
      ['whole', '{{REMOTE_URL}}'],
      ['suffixed', '{{REMOTE_ORIGIN}}/graphql'],
    ]) {
      const r = await admin('add_remote_schema', { name, definition: { url, customization: { root_fields_namespace: name } } });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    }
    const q = await engine.post('/v1/graphql', { query: '{ whole { hello } suffixed { hello } }' });
    expect(q.body).toEqual({ data: { whole: { hello: 'world' }, suffixed: { hello: 'world' } } });
  });

  it('a one-off scheduled event is delivered to the webhook its template makes', async () => {
    const r = await admin('create_scheduled_event', { webhook: '{{HOOK_BASE}}/once', schedule_at: new Date().toISOString(), payload: { k: 1 } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const [call] = await until('the scheduled event', () => (callsTo('/once').length ? callsTo('/once') : undefined));
    expect(JSON.parse(call!.body).payload).toEqual({ k: 1 });
  });

  it('the exported metadata keeps the templates as given', async () => {
    const m = (await admin('export_metadata', {})).body;
    expect(m.sources[0].tables[0].event_triggers[0].webhook).toBe('{{HOOK_BASE}}/events');
    expect(m.remote_schemas.map((r: { definition: { url: string } }) => r.definition.url)).toEqual(['{{REMOTE_URL}}', '{{REMOTE_ORIGIN}}/graphql']);
    expect(m.cron_triggers[0].webhook).toBe('{{HOOK_BASE}}/cron');
  });
});

describe('a variable not set, or not making a URL', () => {
  it('refuses to add an object whose template cannot be filled in, naming the variable, and stores nothing', async () => {
    const before = (await admin('export_metadata', {})).body;
    const cases: [string, unknown, string][] = [
      ['pg_create_event_trigger', { name: 'unset', table: 'thing', webhook: '{{UNSET_HOOK}}/x', insert: { columns: '*' } }, 'UNSET_HOOK'],
      ['pg_create_event_trigger', { name: 'bad', table: 'thing', webhook: '{{NOT_A_URL}}/x', insert: { columns: '*' } }, 'NOT_A_URL'],
      ['add_remote_schema', { name: 'unset', definition: { url: '{{UNSET_REMOTE}}' } }, 'UNSET_REMOTE'],
      ['add_remote_schema', { name: 'bad', definition: { url: '{{NOT_A_URL}}/graphql' } }, 'NOT_A_URL'],
      ['create_cron_trigger', { name: 'unset', webhook: '{{UNSET_CRON}}/x', schedule: '0 0 * * *', include_in_metadata: true }, 'UNSET_CRON'],
      ['create_scheduled_event', { webhook: '{{UNSET_ONCE}}/x', schedule_at: new Date().toISOString() }, 'UNSET_ONCE'],
    ];
    for (const [type, args, variable] of cases) {
      const r = await admin(type, args);
      expect(r.status, `${type} ${variable}`).toBe(400);
      expect(r.body, `${type} ${variable}`).toMatchObject({ code: 'invalid-configuration', error: expect.stringContaining(variable) });
    }
    expect((await admin('create_cron_trigger', { name: 'unset', webhook: '{{UNSET_CRON}}/x', schedule: '0 0 * * *', include_in_metadata: true })).body.error).toContain(
      'Value for environment variables not found: UNSET_CRON',
    );
    expect((await admin('export_metadata', {})).body).toEqual(before);
    expect(await inconsistentObjects()).toEqual([]);
  });

  it('refuses a plain URL that is not http(s) as before, at its path', async () => {
    const r = await admin('pg_create_event_trigger', { name: 'plain', table: 'thing', webhook: 'nowhere/x', insert: { columns: '*' } });
    expect(r.body).toMatchObject({ code: 'parse-failed', path: '$.args.webhook' });
  });

  it('the first cron call came to the webhook its template makes', async () => {
    const [call] = await until('the cron call', () => (callsTo('/cron').length ? callsTo('/cron') : undefined), 70_000);
    expect(JSON.parse(call!.body).name).toBe('minutely');
  }, 75_000);

  it('after a restart without the variables, each object reading one is inconsistent, named with the variable', async () => {
    await engine.stop();
    engine = await startEngine(env({ REMOTE_ORIGIN: remote.url.replace('/graphql', '') }));
    const objects = await inconsistentObjects();
    const reasons = Object.fromEntries(objects.map((o) => [`${o.type}:${o.name}`, o.reason]));
    expect(Object.keys(reasons).sort()).toEqual(['cron_trigger:cron_trigger minutely', 'event_trigger:event_trigger templated in table thing in source default', 'remote_schema:remote_schema whole']);
    expect(reasons['event_trigger:event_trigger templated in table thing in source default']).toContain('Value for environment variables not found: HOOK_BASE');
    expect(reasons['remote_schema:remote_schema whole']).toContain('Value for environment variables not found: REMOTE_URL');
    expect(reasons['cron_trigger:cron_trigger minutely']).toContain('Value for environment variables not found: HOOK_BASE');
    // The other remote schema's variable is set: it is served.
    expect((await engine.post('/v1/graphql', { query: '{ suffixed { hello } }' })).body).toEqual({ data: { suffixed: { hello: 'world' } } });
    // What is stored keeps the templates.
    expect((await admin('export_metadata', {})).body.sources[0].tables[0].event_triggers[0].webhook).toBe('{{HOOK_BASE}}/events');
  });

  it('a variable that makes no URL is reported naming it', async () => {
    await engine.stop();
    engine = await startEngine(env({ HOOK_BASE: 'nowhere', REMOTE_URL: remote.url, REMOTE_ORIGIN: remote.url.replace('/graphql', '') }));
    const reason = (await inconsistentObjects()).find((o) => o.type === 'event_trigger')?.reason;
    expect(reason).toContain('"nowhere/events" (made from environment variable "HOOK_BASE") is not a valid http or https URL');
  });
});
