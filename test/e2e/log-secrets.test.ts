/**
 * No secret in any log line or span (docs/operations.md "Logs"): an engine with every log type
 * on, at debug level, tracing every request with statements' SQL to a real OTLP receiver, is
 * given an admin secret, a JWT key, tokens, cookies, an event trigger's webhook headers and a
 * source whose connection string holds a password; it runs requests that use them and fail with
 * them; not one line it wrote nor one span it sent holds any of them.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../support/db.js';
import { startEngine, type Engine } from '../support/engine.js';
import { startServer, type TestServer } from '../auth/http-server.js';
import { inSeconds, serviceClaims, sign, signingKey } from '../auth/tokens.js';
import { CONFIGURABLE_LOG_TYPES } from '../../src/log.js';
import { OtlpReceiver } from '../support/otlp-receiver.js';

const ADMIN_SECRET = 'adm-SECRET-4d1f';
const WRONG_SECRET = 'wrong-SECRET-77a0';
const COOKIE = 'session=cookie-SECRET-9b2e';
const DB_PASSWORD = 'pw-SECRET-51c3';
const HEADER_SECRET = 'hdr-SECRET-e6d4';
const ADMIN = { 'x-service-admin-secret': ADMIN_SECRET };
const key = signingKey('HS256');

let db: TestDatabase;
let webhook: TestServer;
let engine: Engine;
let token: string;
let collector: OtlpReceiver;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  db = await freshDatabase();
  await db.sql(`CREATE TABLE note (id serial PRIMARY KEY, body text); INSERT INTO note (body) VALUES ('a');`);
  webhook = await startServer(() => ({ status: 500, body: 'down' }));
  collector = await new OtlpReceiver().start();
  engine = await startEngine({
    SERVICE_GRAPHQL_DATABASE_URL: db.url,
    SERVICE_GRAPHQL_ADMIN_SECRET: ADMIN_SECRET,
    SERVICE_GRAPHQL_JWT_SECRET: JSON.stringify({ type: 'HS256', key: key.configKey }),
    SERVICE_GRAPHQL_ENABLED_LOG_TYPES: CONFIGURABLE_LOG_TYPES.join(','),
    SERVICE_GRAPHQL_LOG_LEVEL: 'debug',
    SERVICE_GRAPHQL_EVENTS_FETCH_INTERVAL: '100',
    SERVICE_GRAPHQL_ENABLE_QUERY_TRACING: 'true',
    OTEL_BSP_SCHEDULE_DELAY: '100',
    SECRET_HEADER_VALUE: HEADER_SECRET,
  });
  token = await sign(key, { ...serviceClaims(['user'], 'user', { 'x-service-user-id': 'u1' }), exp: inSeconds(600) });
});

afterAll(async () => {
  await engine?.stop();
  await webhook?.close();
  await collector?.stop();
  await db?.drop();
});

it('writes none of the secrets it was given or shown in any log line or span', async () => {
  const exported = (await engine.metadata({ type: 'export_metadata', args: {} }, ADMIN)).body;
  const unreachable = { name: 'elsewhere', kind: 'postgres', tables: [], configuration: { connection_info: { database_url: `postgres://someone:${DB_PASSWORD}@127.0.0.1:1/nothing` } } };
  exported.sources[0].tables = [
    {
      table: { schema: 'public', name: 'note' },
      select_permissions: [{ role: 'user', permission: { columns: ['id', 'body'], filter: {} } }],
      event_triggers: [
        {
          name: 'note_added',
          definition: { enable_manual: false, insert: { columns: '*' } },
          retry_conf: { num_retries: 0, interval_sec: 1, timeout_sec: 5 },
          webhook: webhook.url,
          headers: [
            { name: 'x-secret', value: HEADER_SECRET },
            { name: 'x-secret-env', value_from_env: 'SECRET_HEADER_VALUE' },
          ],
        },
      ],
    },
  ];
  const replaced = await engine.metadata({ type: 'replace_metadata', args: { allow_inconsistent_metadata: true, metadata: { ...exported, sources: [...exported.sources, unreachable] } } }, ADMIN);
  expect(replaced.status).toBe(200);
  const traced = await engine.metadata({ type: 'set_opentelemetry_config', args: { status: 'enabled', data_types: ['traces'], exporter_otlp: { otlp_traces_endpoint: collector.url(), protocol: 'http/protobuf' } } }, ADMIN);
  expect(traced.status).toBe(200);
  await sleep(500); // the SDK is loaded when tracing is first turned on

  const gql = (headers: Record<string, string>, query = '{ note { id body } }') =>
    fetch(`${engine.url}/v1/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ query }) }).then((r) => r.json() as Promise<any>);
  expect(await gql({ authorization: `Bearer ${token}`, cookie: COOKIE })).toEqual({ data: { note: [{ id: 1, body: 'a' }] } });
  expect((await gql({ authorization: `Bearer ${token}x` })).errors).toBeDefined();
  expect((await gql({ 'x-service-admin-secret': WRONG_SECRET })).errors).toBeDefined();
  expect((await gql({ ...ADMIN, cookie: COOKIE }, 'mutation { insert_note_one(object: {body: "b"}) { id } }')).data).toBeDefined();
  expect((await gql({ ...ADMIN }, '{ nope }')).errors).toBeDefined();
  expect((await fetch(`${engine.url}/healthz/sources`, { headers: ADMIN })).status).toBe(200);
  expect((await engine.metadata({ type: 'export_metadata', args: {} }, { 'x-service-admin-secret': WRONG_SECRET })).status).toBe(401);
  // The event's delivery fails (500) and is logged.
  for (let i = 0; i < 50 && webhook.calls.length === 0; i++) await sleep(100);
  expect(webhook.calls[0]?.headers['x-secret']).toBe(HEADER_SECRET);
  await sleep(500);

  const types = new Set(engine.logs.map((l) => (JSON.parse(l) as { type: string }).type));
  expect([...types]).toEqual(expect.arrayContaining(['startup', 'http-log', 'query-log', 'metadata', 'health-check-log']));
  // The requests' spans, the statements' and the event delivery's among them.
  for (let i = 0; i < 50 && !collector.spans.some((s) => s.attributes['db.statement']); i++) await sleep(100);
  const spans = collector.spans.map((s) => JSON.stringify(s));
  expect(spans.length).toBeGreaterThan(10);
  for (const secret of [ADMIN_SECRET, WRONG_SECRET, COOKIE, 'cookie-SECRET', DB_PASSWORD, HEADER_SECRET, token, key.configKey]) {
    expect(engine.logs.filter((l) => l.includes(secret))).toEqual([]);
    expect(spans.filter((s) => s.includes(secret))).toEqual([]);
  }
});
