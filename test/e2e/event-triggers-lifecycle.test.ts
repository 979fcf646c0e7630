/**
 * The database triggers follow the metadata: replace_metadata,
 * clear_metadata, a dropped source, reload_metadata's recreate_event_triggers,
 * trigger_on_replication, the deprecated `/v1/query` form; and a trigger whose environment
 * variable is missing at boot is inconsistent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../auth/http-server.js';
import { freshDatabase, type TestDatabase } from '../support/db.js';
import { startEngine, type Engine } from '../support/engine.js';
import { eventRows, until } from '../support/events.js';

let db: TestDatabase;
let other: TestDatabase;
let engine: Engine;
let hook: TestServer;
const env = () => ({ SERVICE_GRAPHQL_DATABASE_URL: db.url, OTHER_DB_URL: other.url, SERVICE_GRAPHQL_EVENTS_FETCH_INTERVAL: '100' });

const triggersIn = async (d: TestDatabase) =>
  (await d.sql(`SELECT tgname, tgenabled FROM pg_trigger WHERE tgname LIKE 'service_event_%' ORDER BY 1`)).rows.map((r) => `${r.tgname}:${r.tgenabled}`);
const exported = async () => (await engine.metadata({ type: 'export_metadata', version: 2, args: {} })).body;
const trigger = (name: string, extra: Record<string, unknown> = {}) => ({ name, table: 'thing', webhook: hook.url, insert: { columns: '*' }, ...extra });

beforeAll(async () => {
  db = await freshDatabase();
  other = await freshDatabase();
  for (const d of [db, other]) await d.sql('CREATE TABLE thing (id int PRIMARY KEY)');
  hook = await startServer(() => ({ status: 200 }));
  engine = await startEngine(env());
  expect((await engine.metadata({ type: 'pg_track_table', args: { table: 'thing' } })).status).toBe(200);
});

afterAll(async () => {
  await engine?.stop();
  await hook?.close();
  await db?.drop();
  await other?.drop();
});

describe('database triggers follow the metadata', () => {
  it('installs through the deprecated API, with trigger_on_replication as ENABLE ALWAYS', async () => {
    const r = await engine.query({ type: 'create_event_trigger', args: trigger('old_api', { trigger_on_replication: true }) });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(await triggersIn(db)).toEqual(['service_event_old_api_INSERT:A']);
    expect((await engine.query({ type: 'delete_event_trigger', args: { name: 'old_api' } })).status).toBe(200);
    expect(await triggersIn(db)).toEqual([]);
  });

  it('replace_metadata installs and removes, clear_metadata removes', async () => {
    expect((await engine.metadata({ type: 'pg_create_event_trigger', args: trigger('kept') })).status).toBe(200);
    const doc = await exported();
    expect(await triggersIn(db)).toEqual(['service_event_kept_INSERT:O']);
    expect((await engine.metadata({ type: 'clear_metadata', args: {} })).status).toBe(200);
    expect(await triggersIn(db)).toEqual([]);
    expect((await engine.metadata({ type: 'replace_metadata', args: doc.metadata })).status).toBe(200);
    expect(await triggersIn(db)).toEqual(['service_event_kept_INSERT:O']);
    // The trigger delivers after the round trip.
    await db.sql('INSERT INTO thing VALUES (1)');
    await until('the call', () => hook.calls.length === 1 || undefined);
  });

  it('replace_metadata refuses a malformed trigger with its path, and changes nothing', async () => {
    const doc = await exported();
    const table = doc.metadata.sources[0].tables[0];
    const bad = structuredClone(doc.metadata);
    bad.sources[0].tables[0] = { ...table, event_triggers: [...table.event_triggers, { name: 'broken', definition: 5, webhook: hook.url }] };
    const r = await engine.metadata({ type: 'replace_metadata', args: bad });
    expect(r.status).toBe(400);
    expect(r.body.path).toBe('$.args.sources[0].tables[0].event_triggers[1].definition');
    const noUrl = structuredClone(doc.metadata);
    noUrl.sources[0].tables[0] = { ...table, event_triggers: [{ ...table.event_triggers[0], webhook: 'not a url' }] };
    expect((await engine.metadata({ type: 'replace_metadata', args: noUrl })).body.path).toBe('$.args.sources[0].tables[0].event_triggers[0].webhook');
    expect((await exported()).resource_version).toBe(doc.resource_version);
  });

  it('reload_metadata with recreate_event_triggers installs them again', async () => {
    // Changed by hand: a plain reload leaves a trigger that is there as it is.
    await db.sql('ALTER TABLE thing DISABLE TRIGGER "service_event_kept_INSERT"');
    expect((await engine.metadata({ type: 'reload_metadata', args: {} })).status).toBe(200);
    expect(await triggersIn(db)).toEqual(['service_event_kept_INSERT:D']);
    expect((await engine.metadata({ type: 'reload_metadata', args: { recreate_event_triggers: true } })).status).toBe(200);
    expect(await triggersIn(db)).toEqual(['service_event_kept_INSERT:O']);
  });

  it('a dropped source takes its triggers with it', async () => {
    expect((await engine.metadata({ type: 'pg_add_source', args: { name: 'other', configuration: { connection_info: { database_url: { from_env: 'OTHER_DB_URL' } } } } })).status).toBe(200);
    // Named apart from the default source's thing: two objects may not define one root field.
    expect((await engine.metadata({ type: 'pg_track_table', args: { source: 'other', table: 'thing', configuration: { custom_name: 'other_thing' } } })).status).toBe(200);
    expect((await engine.metadata({ type: 'pg_create_event_trigger', args: { ...trigger('elsewhere'), source: 'other' } })).status).toBe(200);
    expect(await triggersIn(other)).toEqual(['service_event_elsewhere_INSERT:O']);
    expect((await engine.metadata({ type: 'pg_drop_source', args: { name: 'other' } })).status).toBe(200);
    expect(await triggersIn(other)).toEqual([]);
    expect(await triggersIn(db)).toEqual(['service_event_kept_INSERT:O']);
  });
});

describe('removed triggers', () => {
  it('sets aside the pending events of a deleted trigger', async () => {
    const r = await engine.metadata({
      type: 'pg_create_event_trigger',
      args: trigger('pending', { webhook: 'http://127.0.0.1:9/nothing-listens', update: { columns: '*' }, insert: undefined, retry_conf: { num_retries: 5, interval_sec: 300 } }),
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    await db.sql('UPDATE thing SET id = id');
    const event = async () => (await eventRows(db, 'pending'))[0];
    await until('a failed try', async () => ((await event())?.tries === 1 ? true : undefined));
    expect((await engine.metadata({ type: 'pg_delete_event_trigger', args: { name: 'pending' } })).status).toBe(200);
    expect(await event()).toMatchObject({ archived: true, delivered: false, error: false });
  });
});

describe('environment variables at boot', () => {
  it('a trigger whose variable is gone is inconsistent', async () => {
    const withEnv = await engine.metadata({ type: 'pg_create_event_trigger', args: { ...trigger('env_hook'), webhook: undefined, webhook_from_env: 'ENV_HOOK' } });
    expect(withEnv.status).toBe(400);
    await engine.stop();
    engine = await startEngine({ ...env(), ENV_HOOK: hook.url });
    expect((await engine.metadata({ type: 'pg_create_event_trigger', args: { ...trigger('env_hook'), webhook: undefined, webhook_from_env: 'ENV_HOOK' } })).status).toBe(200);
    await engine.stop();
    engine = await startEngine(env());
    const report = (await engine.metadata({ type: 'get_inconsistent_metadata', args: {} })).body;
    expect(report.is_consistent).toBe(false);
    expect(report.inconsistent_objects.map((o: { type: string; name: string }) => [o.type, o.name])).toEqual([['event_trigger', 'event_trigger env_hook in table thing in source default']]);
    expect(report.inconsistent_objects[0].reason).toContain('environment variable "ENV_HOOK" not set');
  });
});
