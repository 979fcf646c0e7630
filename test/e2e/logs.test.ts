/**
 * Typed logs (docs/operations.md "Logs"): every line is `{timestamp, level, type, detail}`; a
 * request's id (its `x-request-id`, or one made) is echoed in the response and carried by every
 * line the request writes (http-log, query-log, webhook-log); `SERVICE_GRAPHQL_ENABLED_LOG_TYPES`
 * chooses the configurable types written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../support/db.js';
import { startEngine, type Engine } from '../support/engine.js';
import { startServer, type TestServer } from '../auth/http-server.js';

const ADMIN = { 'x-service-admin-secret': 'adm' };
const TYPES = ['startup', 'http-log', 'webhook-log', 'websocket-log', 'query-log', 'execution-log', 'livequery-poller-log', 'action-handler-log', 'jwk-refresh-log', 'event-trigger', 'scheduled-trigger', 'health-check-log', 'metadata', 'unstructured'];

let db: TestDatabase;
let hook: TestServer;
let engine: Engine;
let quiet: Engine;
let defaults: Engine;

const lines = (e: Engine) => e.logs.map((l) => JSON.parse(l) as { timestamp: string; level: string; type: string; detail: any });
const ofRequest = (e: Engine, id: string) => lines(e).filter((l) => JSON.stringify(l.detail).includes(id));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A query as the webhook's user; the answer, its size and its `x-request-id`. */
async function query(e: Engine, headers: Record<string, string> = {}) {
  const res = await fetch(`${e.url}/v1/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer user', ...headers }, body: JSON.stringify({ query: 'query Notes { note { id } }', operationName: 'Notes' }) });
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text), size: Buffer.byteLength(text), id: res.headers.get('x-request-id') };
}

beforeAll(async () => {
  db = await freshDatabase();
  await db.sql(`CREATE TABLE note (id serial PRIMARY KEY); INSERT INTO note DEFAULT VALUES;`);
  // The webhook of the authentication and the action's handler (a POST with the action's name).
  hook = await startServer((call) => (call.method === 'POST' ? { status: 200, body: '7' } : { status: 200, body: JSON.stringify({ 'X-Service-Role': 'user' }) }));
  const common = { SERVICE_GRAPHQL_DATABASE_URL: db.url, SERVICE_GRAPHQL_ADMIN_SECRET: 'adm', SERVICE_GRAPHQL_AUTH_HOOK: hook.url };
  [engine, quiet, defaults] = await Promise.all([
    startEngine({ ...common, SERVICE_GRAPHQL_ENABLED_LOG_TYPES: 'startup, http-log, query-log, execution-log, webhook-log, action-handler-log' }),
    startEngine({ ...common, SERVICE_GRAPHQL_ENABLED_LOG_TYPES: 'startup' }),
    startEngine(common),
  ]);
  await engine.metadata({ type: 'pg_track_table', args: { table: 'note' } }, ADMIN);
  await engine.metadata({ type: 'pg_create_select_permission', args: { table: 'note', role: 'user', permission: { columns: ['id'], filter: {} } } }, ADMIN);
  await engine.metadata({ type: 'create_action', args: { name: 'seven', definition: { type: 'query', handler: hook.url, output_type: 'Int!', arguments: [] } } }, ADMIN);
  await engine.metadata({ type: 'create_action_permission', args: { action: 'seven', role: 'user' } }, ADMIN);
  for (const e of [quiet, defaults]) await e.metadata({ type: 'reload_metadata', args: {} }, ADMIN);
});

afterAll(async () => {
  await Promise.all([engine, quiet, defaults].map((e) => e?.stop()));
  await hook?.close();
  await db?.drop();
});

describe('typed log lines', () => {
  it('writes every line as {timestamp, level, type, detail} of a known type', async () => {
    await query(engine);
    for (const l of lines(engine)) {
      expect(Object.keys(l)).toEqual(['timestamp', 'level', 'type', 'detail']);
      expect(TYPES).toContain(l.type);
      expect(['debug', 'info', 'warn', 'error']).toContain(l.level);
      expect(new Date(l.timestamp).toISOString()).toBe(l.timestamp);
    }
    expect(lines(engine).find((l) => l.type === 'startup' && l.detail.message === 'server ready')).toBeDefined();
  });

  it("echoes the client's x-request-id and writes it in every line of the request: webhook-log, query-log, execution-log, http-log", async () => {
    const r = await query(engine, { 'x-request-id': 'req-logs-1' });
    expect(r.body).toEqual({ data: { note: [{ id: 1 }] } });
    expect(r.id).toBe('req-logs-1');
    await sleep(100);
    const mine = ofRequest(engine, 'req-logs-1');
    expect(mine.map((l) => l.type).sort()).toEqual(['execution-log', 'http-log', 'query-log', 'webhook-log']);
    expect(mine.every((l) => l.detail.request_id === 'req-logs-1')).toBe(true);
    const http = mine.find((l) => l.type === 'http-log')!;
    expect(http.level).toBe('info');
    expect(http.detail.http_info).toEqual({ status: 200, http_version: 'HTTP/1.1', url: '/v1/graphql', ip: expect.stringMatching(/127\.0\.0\.1/), method: 'POST', content_encoding: null });
    expect(http.detail.operation).toEqual({
      query_execution_time: expect.any(Number),
      user_vars: { 'x-service-role': 'user' },
      error: null,
      request_id: 'req-logs-1',
      response_size: r.size,
      query: null,
      parameterized_query_hash: expect.stringMatching(/^[0-9a-f]{40}$/),
    });
    const sql = mine.find((l) => l.type === 'query-log')!.detail;
    expect(sql).toMatchObject({ kind: 'database', query: { operationName: 'Notes' } });
    expect(sql.generated_sql.note.query).toContain('"public"."note"');
    expect(mine.find((l) => l.type === 'webhook-log')!.detail).toMatchObject({ url: hook.url, method: 'GET', status_code: 200 });
  });

  it('makes an id when the client sends none, and logs a failed request with its error and query at level error', async () => {
    const ok = await query(engine);
    expect(ok.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    const res = await fetch(`${engine.url}/v1/graphql`, { method: 'POST', headers: { authorization: 'Bearer user', 'x-request-id': 'req-logs-bad' }, body: JSON.stringify({ query: '{ nope }' }) });
    expect(res.headers.get('x-request-id')).toBe('req-logs-bad');
    await sleep(100);
    expect(ofRequest(engine, ok.id!).find((l) => l.type === 'http-log')).toBeDefined();
    const bad = ofRequest(engine, 'req-logs-bad').find((l) => l.type === 'http-log')!;
    expect(bad.level).toBe('error');
    expect(bad.detail.operation.error).toMatchObject({ extensions: { code: 'validation-failed' } });
    expect(bad.detail.operation.query).toEqual({ query: '{ nope }' });
  });

  it("writes an action handler's call as an action-handler-log line of the request", async () => {
    const res = await fetch(`${engine.url}/v1/graphql`, { method: 'POST', headers: { authorization: 'Bearer user', 'x-request-id': 'req-logs-action' }, body: JSON.stringify({ query: '{ seven }' }) });
    expect(await res.json()).toEqual({ data: { seven: 7 } });
    await sleep(100);
    const mine = ofRequest(engine, 'req-logs-action');
    expect(mine.map((l) => l.type).sort()).toEqual(['action-handler-log', 'http-log', 'webhook-log']);
    expect(mine.find((l) => l.type === 'action-handler-log')).toMatchObject({ level: 'info', detail: { action_name: 'seven', request_id: 'req-logs-action', ok: true } });
  });

  it('writes an execution-log line per statement when it ends: its source, backend and time, and the error of one that failed', async () => {
    const { id } = await query(engine);
    const ran = lines(engine).filter((l) => l.type === 'execution-log' && l.detail.request_id === id);
    expect(ran).toHaveLength(1);
    expect(ran[0]).toMatchObject({ level: 'info', detail: { operation_name: 'Notes', source: 'default', backend: 'postgres' } });
    expect(ran[0]!.detail.time_ms).toBeGreaterThan(0);
    const insert = (body: string) =>
      fetch(`${engine.url}/v1/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...ADMIN, 'x-request-id': body }, body: JSON.stringify({ query: 'mutation { insert_note_one(object: {id: 1}) { id } }' }) });
    await insert('dup-1');
    const failed = lines(engine).filter((l) => l.type === 'execution-log' && l.detail.request_id === 'dup-1');
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ level: 'error', detail: { source: 'default' } });
    expect(failed[0]!.detail.error).toContain('duplicate key');
    await query(defaults);
    expect(lines(defaults).some((l) => l.type === 'execution-log')).toBe(false);
  });

  it('echoes the id on admin answers and 404s too', async () => {
    const res = await fetch(`${engine.url}/no/such/route`, { headers: { 'x-request-id': 'req-logs-404' } });
    expect([res.status, res.headers.get('x-request-id')]).toEqual([404, 'req-logs-404']);
    await sleep(100);
    expect(ofRequest(engine, 'req-logs-404').map((l) => [l.type, l.level, l.detail.http_info?.status])).toEqual([['http-log', 'error', 404]]);
  });
});

describe('SERVICE_GRAPHQL_ENABLED_LOG_TYPES', () => {
  it('writes only the configurable types it names (startup alone: no http-log, no webhook-log)', async () => {
    const r = await query(quiet, { 'x-request-id': 'req-logs-quiet' });
    expect(r.id).toBe('req-logs-quiet');
    await sleep(100);
    expect(ofRequest(quiet, 'req-logs-quiet')).toEqual([]);
    expect(lines(quiet).filter((l) => ['http-log', 'webhook-log', 'query-log'].includes(l.type))).toEqual([]);
  });

  it('by default writes startup, http-log and webhook-log lines but no query-log', async () => {
    await query(defaults, { 'x-request-id': 'req-logs-default' });
    await sleep(100);
    expect(ofRequest(defaults, 'req-logs-default').map((l) => l.type).sort()).toEqual(['http-log', 'webhook-log']);
  });
});
