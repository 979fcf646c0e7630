/**
 * Event triggers end to end: capture in the source's transaction, the
 * body a real webhook receives, session variables from a GraphQL mutation, headers from the
 * environment, retries with Retry-After, error then redeliver, manual invocation, replace,
 * delete, bad input.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RecordedCall, type TestServer } from '../auth/http-server.js';
import { freshDatabase, type TestDatabase } from '../support/db.js';
import { startEngine, type Engine } from '../support/engine.js';
import { eventRows as eventRowsOf, until } from '../support/events.js';

let db: TestDatabase;
let engine: Engine;
let hook: TestServer;
/** Answers by path: each test gives its trigger its own path. */
const answers = new Map<string, (call: RecordedCall) => { status: number; headers?: Record<string, string>; body?: string }>();

const hookUrl = (path: string) => hook.url.replace('/auth', `/${path}`);
const callsTo = (path: string) => hook.calls.filter((c) => c.url.split('?')[0] === `/${path}`);
const bodies = (path: string) => callsTo(path).map((c) => JSON.parse(c.body));


const create = (args: Record<string, unknown>) => engine.metadata({ type: 'pg_create_event_trigger', args: { table: 'note', ...args } });
const exported = async () => (await engine.metadata({ type: 'export_metadata', args: {} })).body;
const eventRows = (trigger: string) => eventRowsOf(db, trigger);
const databaseTriggers = async () => (await db.sql(`SELECT tgname FROM pg_trigger WHERE tgname LIKE 'service_event_%' ORDER BY 1`)).rows.map((r) => r.tgname as string);

beforeAll(async () => {
  db = await freshDatabase();
  await db.sql(`CREATE TABLE note (id serial PRIMARY KEY, body text, author text, secret text);
    CREATE TABLE other (id int PRIMARY KEY)`);
  hook = await startServer((call) => (answers.get(call.url.split('?')[0]!.slice(1)) ?? (() => ({ status: 200, body: '{}' })))(call));
  engine = await startEngine({
    SERVICE_GRAPHQL_DATABASE_URL: db.url,
    SERVICE_GRAPHQL_EVENTS_FETCH_INTERVAL: '100',
    HOOK_URL: hookUrl('from-env'),
    HOOK_TOKEN: 'sekret',
  });
  for (const table of ['note', 'other']) expect((await engine.metadata({ type: 'pg_track_table', args: { table } })).status).toBe(200);
  const perm = await engine.metadata({
    type: 'pg_create_insert_permission',
    args: { table: 'note', role: 'user', permission: { check: {}, columns: ['body', 'author'], set: {} } },
  });
  expect(perm.status).toBe(200);
  const select = await engine.metadata({ type: 'pg_create_select_permission', args: { table: 'note', role: 'user', permission: { columns: ['id'], filter: {} } } });
  expect(select.status).toBe(200);
});

afterAll(async () => {
  await engine?.stop();
  await hook?.close();
  await db?.drop();
});

describe('capture', () => {
  it('sends inserts, updates of the listed columns only with the payload columns, and deletes', async () => {
    const r = await create({
      name: 'capture',
      webhook: hookUrl('capture'),
      insert: { columns: '*' },
      update: { columns: ['body'], payload: ['id', 'body'] },
      delete: { columns: '*' },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(await databaseTriggers()).toEqual(['service_event_capture_DELETE', 'service_event_capture_INSERT', 'service_event_capture_UPDATE']);
    await db.sql(`INSERT INTO note (body, author, secret) VALUES ('one', 'ann', 's')`);
    const [insert] = await until('the insert event', () => (callsTo('capture').length >= 1 ? bodies('capture') : undefined));
    expect(insert.event.op).toBe('INSERT');
    expect(insert.event.data).toEqual({ old: null, new: { id: 1, body: 'one', author: 'ann', secret: 's' } });
    expect(insert.event.session_variables).toBeNull();
    expect(insert.trigger).toEqual({ name: 'capture' });
    expect(insert.table).toEqual({ schema: 'public', name: 'note' });
    expect(insert.delivery_info).toEqual({ max_retries: 0, current_retry: 0 });
    expect(insert.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(typeof insert.created_at).toBe('string');
    expect(Object.keys(insert.event).sort()).toEqual(['data', 'op', 'session_variables', 'trace_context']);
    expect(callsTo('capture')[0]!.headers['content-type']).toBe('application/json');

    await db.sql(`UPDATE note SET author = 'bob' WHERE id = 1`);
    await db.sql(`UPDATE note SET body = 'two' WHERE id = 1`);
    await db.sql(`DELETE FROM note WHERE id = 1`);
    const all = await until('the update and delete events', () => (callsTo('capture').length >= 3 ? bodies('capture') : undefined));
    // The author-only update fired nothing.
    expect(all.map((b) => b.event.op)).toEqual(['INSERT', 'UPDATE', 'DELETE']);
    expect(all[1].event.data).toEqual({ old: { id: 1, body: 'one' }, new: { id: 1, body: 'two' } });
    expect(all[2].event.data).toEqual({ old: { id: 1, body: 'two', author: 'bob', secret: 's' }, new: null });
    await until('every event delivered', async () => (await eventRows('capture')).every((e) => e.delivered) || undefined);
    const invocations = (await db.sql(`SELECT status, request, response FROM service_catalog.event_invocation_logs WHERE trigger_name = 'capture'`)).rows;
    expect(invocations).toHaveLength(3);
    expect(invocations[0].status).toBe(200);
    expect(invocations[0].response.data.body).toBe('{}');
  });

  it('records the session variables of the GraphQL mutation that made the change', async () => {
    const r = await engine.post(
      '/v1/graphql',
      { query: `mutation { insert_note_one(object: {body: "by user", author: "u"}) { id } }` },
      { 'X-Service-Role': 'user', 'X-Service-User-Id': '7' },
    );
    expect(r.body.errors).toBeUndefined();
    const events = await until('the mutation event', () => {
      const b = bodies('capture').filter((x) => x.event.data.new?.body === 'by user');
      return b.length ? b : undefined;
    });
    expect(events[0].event.session_variables).toEqual({ 'x-service-role': 'user', 'x-service-user-id': '7' });
  });

  it('is in the export, and a write rolled back sends nothing', async () => {
    const table = (await exported()).sources[0].tables.find((t: { table: { name: string } }) => t.table.name === 'note');
    expect(table.event_triggers).toEqual([
      {
        name: 'capture',
        definition: { enable_manual: false, insert: { columns: '*' }, update: { columns: ['body'], payload: ['id', 'body'] }, delete: { columns: '*' } },
        retry_conf: { num_retries: 0, interval_sec: 10, timeout_sec: 60 },
        webhook: hookUrl('capture'),
      },
    ]);
    const before = (await eventRows('capture')).length;
    await db.sql(`BEGIN; INSERT INTO note (body) VALUES ('never'); ROLLBACK`);
    expect((await eventRows('capture')).length).toBe(before);
  });
});

describe('delivery', () => {
  it('sends headers from values and from the environment, to a webhook from the environment', async () => {
    const r = await create({
      name: 'from_env',
      webhook_from_env: 'HOOK_URL',
      insert: { columns: '*' },
      headers: [
        { name: 'X-Token', value_from_env: 'HOOK_TOKEN' },
        { name: 'X-Static', value: 'plain' },
      ],
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    await db.sql(`INSERT INTO note (body) VALUES ('env')`);
    const [call] = await until('the call', () => (callsTo('from-env').length ? callsTo('from-env') : undefined));
    expect(call!.headers['x-token']).toBe('sekret');
    expect(call!.headers['x-static']).toBe('plain');
    await engine.metadata({ type: 'pg_delete_event_trigger', args: { name: 'from_env' } });
  });

  it('retries per retry_conf, waiting as Retry-After says, then delivers', async () => {
    let n = 0;
    answers.set('retry', () => (++n <= 2 ? { status: 503, headers: { 'retry-after': '1' }, body: 'busy' } : { status: 200, body: 'ok' }));
    const r = await engine.metadata({
      type: 'pg_create_event_trigger',
      args: { table: 'other', name: 'retry', webhook: hookUrl('retry'), insert: { columns: '*' }, retry_conf: { num_retries: 3, interval_sec: 300, timeout_sec: 5 } },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const start = Date.now();
    await db.sql(`INSERT INTO other VALUES (1)`);
    await until('three calls', () => callsTo('retry').length >= 3 || undefined);
    // interval_sec is 300: only Retry-After can have brought the retries this soon.
    expect(Date.now() - start).toBeLessThan(8000);
    expect(Date.now() - start).toBeGreaterThanOrEqual(1900);
    expect(bodies('retry').map((b) => b.delivery_info)).toEqual([0, 1, 2].map((current_retry) => ({ max_retries: 3, current_retry })));
    const [event] = await until('delivered', async () => {
      const rows = await eventRows('retry');
      return rows[0]?.delivered ? rows : undefined;
    });
    expect(event.tries).toBe(3);
    const statuses = (await db.sql(`SELECT status FROM service_catalog.event_invocation_logs WHERE event_id = $1 ORDER BY created_at`, [event.id])).rows.map((x) => x.status);
    expect(statuses).toEqual([503, 503, 200]);
  });

  it('records an answer whose body holds a NUL character, and the other deliveries recorded with it', async () => {
    answers.set('nul', (call) => ({ status: 200, body: JSON.parse(call.body).event.data.new.id === 11 ? 'a\u0000b' : 'fine' }));
    const r = await engine.metadata({ type: 'pg_create_event_trigger', args: { table: 'other', name: 'nul', webhook: hookUrl('nul'), insert: { columns: '*' } } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    await db.sql(`INSERT INTO other SELECT g FROM generate_series(10, 14) g`);
    await until('all delivered', async () => ((await eventRows('nul')).filter((e) => e.delivered).length === 5 ? true : undefined));
    const recorded = (await db.sql(`SELECT response -> 'data' ->> 'body' AS body FROM service_catalog.event_invocation_logs WHERE trigger_name = 'nul' ORDER BY 1`)).rows.map((x) => x.body);
    expect(recorded).toEqual(['ab', 'fine', 'fine', 'fine', 'fine']);
    expect(callsTo('nul')).toHaveLength(5);
    await engine.metadata({ type: 'pg_delete_event_trigger', args: { name: 'nul' } });
  });

  it('marks error after the last try, and pg_redeliver_event delivers it again', async () => {
    let failing = true;
    answers.set('fails', () => (failing ? { status: 500, body: 'no' } : { status: 200, body: 'yes' }));
    const r = await engine.metadata({
      type: 'pg_create_event_trigger',
      args: { table: 'other', name: 'fails', webhook: hookUrl('fails'), insert: { columns: '*' }, retry_conf: { num_retries: 1, interval_sec: 0 } },
    });
    expect(r.status).toBe(200);
    await db.sql(`INSERT INTO other VALUES (2)`);
    const [event] = await until('error', async () => {
      const rows = await eventRows('fails');
      return rows[0]?.error ? rows : undefined;
    });
    expect(callsTo('fails')).toHaveLength(2);
    expect(event.delivered).toBe(false);
    failing = false;
    expect((await engine.metadata({ type: 'pg_redeliver_event', args: { event_id: event.id } })).body).toEqual({ message: 'success' });
    await until('delivered', async () => (await eventRows('fails'))[0]?.delivered || undefined);
    expect(callsTo('fails')).toHaveLength(3);
    expect(bodies('fails')[2].delivery_info.current_retry).toBe(0);
    const unknown = await engine.metadata({ type: 'pg_redeliver_event', args: { event_id: '00000000-0000-0000-0000-000000000000' } });
    expect(unknown.status).toBe(400);
    const malformed = await engine.metadata({ type: 'pg_redeliver_event', args: { event_id: 'nope' } });
    expect(malformed.status).toBe(400);
    expect(malformed.body.path).toBe('$.args.event_id');
  });

  it('invokes by hand only with enable_manual', async () => {
    const refused = await engine.metadata({ type: 'pg_invoke_event_trigger', args: { name: 'capture', payload: { a: 1 } } });
    expect(refused.status).toBe(400);
    expect(refused.body.path).toBe('$.args');
    const r = await create({ name: 'manual', webhook: hookUrl('manual'), enable_manual: true });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const invoked = await engine.metadata({ type: 'pg_invoke_event_trigger', args: { name: 'manual', payload: { a: 1 } } });
    expect(invoked.status).toBe(200);
    expect(invoked.body.event_id).toMatch(/^[0-9a-f-]{36}$/);
    const [body] = await until('the manual call', () => (callsTo('manual').length ? bodies('manual') : undefined));
    expect(body.id).toBe(invoked.body.event_id);
    expect(body.event.op).toBe('MANUAL');
    expect(body.event.data).toEqual({ old: null, new: { a: 1 } });
    // The deprecated form.
    const old = await engine.query({ type: 'invoke_event_trigger', args: { name: 'manual', payload: { b: 2 } } });
    expect(old.status).toBe(200);
    await until('the second manual call', () => callsTo('manual').length >= 2 || undefined);
  });
});

describe('definition changes', () => {
  it('refuses a second trigger of the same name unless replace, which replaces the database trigger', async () => {
    const again = await create({ name: 'capture', webhook: hookUrl('capture'), insert: { columns: '*' } });
    expect(again.status).toBe(400);
    expect(again.body.code).toBe('already-exists');
    const replaced = await create({ name: 'capture', webhook: hookUrl('replaced'), insert: { columns: ['body'], payload: ['body'] }, replace: true });
    expect(replaced.status, JSON.stringify(replaced.body)).toBe(200);
    expect((await databaseTriggers()).filter((t) => t.startsWith('service_event_capture'))).toEqual(['service_event_capture_INSERT']);
    await db.sql(`INSERT INTO note (body, author) VALUES ('replaced', 'x')`);
    const [body] = await until('the replaced trigger call', () => (callsTo('replaced').length ? bodies('replaced') : undefined));
    expect(body.event.data.new).toEqual({ body: 'replaced' });
  });

  it('deletes: the database triggers go, and writes send nothing', async () => {
    expect((await engine.metadata({ type: 'pg_delete_event_trigger', args: { name: 'capture' } })).status).toBe(200);
    expect((await databaseTriggers()).filter((t) => t.startsWith('service_event_capture'))).toEqual([]);
    const missing = await engine.metadata({ type: 'pg_delete_event_trigger', args: { name: 'capture' } });
    expect(missing.status).toBe(400);
    const before = (await eventRows('capture')).length;
    await db.sql(`INSERT INTO note (body) VALUES ('after delete')`);
    expect((await eventRows('capture')).length).toBe(before);
  });

  it('follows a table renamed through run_sql, and untracking removes its triggers', async () => {
    expect((await create({ name: 'renamed', webhook: hookUrl('renamed'), insert: { columns: ['body'] } })).status).toBe(200);
    expect((await engine.runSql('ALTER TABLE note RENAME COLUMN body TO text; ALTER TABLE note RENAME TO memo')).status).toBe(200);
    const memo = (await exported()).sources[0].tables.find((t: { table: { name: string } }) => t.table.name === 'memo');
    expect(memo.event_triggers.find((t: { name: string }) => t.name === 'renamed').definition.insert).toEqual({ columns: ['text'] });
    await db.sql(`INSERT INTO memo (text) VALUES ('renamed')`);
    const [body] = await until('the renamed table call', () => (callsTo('renamed').length ? bodies('renamed') : undefined));
    expect(body.table).toEqual({ schema: 'public', name: 'memo' });
    expect(body.event.data.new.text).toBe('renamed');
    expect((await engine.metadata({ type: 'pg_untrack_table', args: { table: 'memo', cascade: true } })).status).toBe(200);
    expect((await databaseTriggers()).filter((t) => t.startsWith('service_event_renamed'))).toEqual([]);
    expect((await engine.runSql('ALTER TABLE memo RENAME COLUMN text TO body; ALTER TABLE memo RENAME TO note')).status).toBe(200);
    expect((await engine.metadata({ type: 'pg_track_table', args: { table: 'note' } })).status).toBe(200);
  });
});

describe('bad input', () => {
  it('answers 4xx with the path and stores nothing', async () => {
    const before = await exported();
    const cases: [Record<string, unknown>, string][] = [
      [{ name: 'x', table: 'nope', webhook: hookUrl('x'), insert: { columns: '*' } }, '$.args.table'],
      [{ name: 'x', webhook: hookUrl('x'), insert: { columns: ['nope'] } }, '$.args'],
      [{ name: 'x', webhook_from_env: 'NOT_SET_ANYWHERE', insert: { columns: '*' } }, '$.args'],
      [{ name: 'x', webhook: 'not a url', insert: { columns: '*' } }, '$.args.webhook'],
      [{ name: 'x', webhook: hookUrl('x'), insert: { columns: '*' }, headers: [{ name: 'a', value_from_env: 'NOT_SET_ANYWHERE' }] }, '$.args'],
      [{ name: 'x', webhook: hookUrl('x'), insert: { columns: '*' }, request_transform: { version: 2, template_engine: 'Kriti', body: { action: 'transform', template: '{{ $body. }}' } } }, '$.args'],
      [{ name: 'bad name!', webhook: hookUrl('x'), insert: { columns: '*' } }, '$.args'],
      [{ name: 'x', webhook: hookUrl('x') }, '$.args'],
    ];
    for (const [args, path] of cases) {
      const r = await create(args);
      expect(r.status, JSON.stringify(args)).toBe(400);
      expect(r.body.path, JSON.stringify(r.body)).toBe(path);
    }
    expect(await exported()).toEqual(before);
  });

  it('refuses a name as the well-known engine does, in its words', async () => {
    for (const name of ['bad name!', '1st', '_x']) {
      expect((await create({ name, webhook: hookUrl('x'), insert: { columns: '*' } })).body).toEqual({ path: '$.args', error: 'only alphanumeric and underscore and hyphens allowed for name', code: 'parse-failed' });
    }
    expect((await create({ name: `a${'b'.repeat(42)}`, webhook: hookUrl('x'), insert: { columns: '*' } })).body).toEqual({ path: '$.args', error: 'event trigger name can be at most 42 characters', code: 'parse-failed' });
    expect((await create({ name: `a${'b'.repeat(41)}`, webhook: hookUrl('x'), insert: { columns: '*' } })).status).toBe(200);
    expect((await engine.metadata({ type: 'pg_delete_event_trigger', args: { name: `a${'b'.repeat(41)}` } })).status).toBe(200);
  });
});
