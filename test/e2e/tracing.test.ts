/**
 * OpenTelemetry traces: `set_opentelemetry_config` / `set_opentelemetry_status` (checked,
 * stored, exported), and what a real OTLP/HTTP receiver gets for a GraphQL request that comes
 * with a `traceparent` and calls an action handler: one trace under the caller's span (the
 * request, authentication, its plan with the plan cache's answer, its statement, the handler's
 * client span), the handler called with W3C and B3 headers; nothing while disabled; an
 * unreachable collector neither fails nor slows requests, and its spans are counted as dropped.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../support/db.js';
import { startEngine, type Engine } from '../support/engine.js';
import { ActionHandler } from '../support/action-handler.js';
import { OtlpReceiver, type ReceivedSpan } from '../support/otlp-receiver.js';
import { parsePrometheusText, sampleValue } from '../support/prometheus-text.js';

const ADMIN = { 'X-Service-Admin-Secret': 'adm' };
let db: TestDatabase;
let engine: Engine;
const receiver = new OtlpReceiver();
const handler = new ActionHandler({ '/hello': (b) => ({ body: { greeting: `hello ${b.input.name}` } }), '/events': () => ({ body: {} }) });

const admin = (type: string, args: unknown) => engine.metadata({ type, args }, ADMIN);
const ok = async (type: string, args: unknown) => {
  const r = await admin(type, args);
  expect(r.body, `${type}: ${JSON.stringify(r.body)}`).toEqual({ message: 'success' });
};
const exported = async () => (await admin('export_metadata', {})).body.opentelemetry;
const hex = (n: number) => Array.from({ length: n }, () => Math.floor(Math.random() * 16).toString(16)).join('');
const QUERY = '{ author { id } hello(name: "ann") { greeting } }';

const CONFIG = {
  status: 'enabled',
  data_types: ['traces'],
  exporter_otlp: {
    otlp_traces_endpoint: '{{OTLP_BASE}}/v1/traces',
    protocol: 'http/protobuf',
    headers: [{ name: 'x-collector-token', value_from_env: 'OTLP_TOKEN' }],
    resource_attributes: [{ name: 'deployment.environment', value: 'test' }],
    traces_propagators: ['tracecontext', 'b3'],
  },
  batch_span_processor: { max_export_batch_size: 64 },
};

async function spansOf(traceId: string, atLeast: number): Promise<ReceivedSpan[]> {
  const until = Date.now() + 10_000;
  while (receiver.trace(traceId).length < atLeast && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
  return receiver.trace(traceId);
}

beforeAll(async () => {
  await Promise.all([receiver.start(), handler.start()]);
  db = await freshDatabase();
  await db.sql(`CREATE TABLE author (id int PRIMARY KEY, name text NOT NULL); INSERT INTO author VALUES (1, 'ann');`);
  engine = await startEngine({
    SERVICE_GRAPHQL_DATABASE_URL: db.url,
    SERVICE_GRAPHQL_ADMIN_SECRET: 'adm',
    SERVICE_GRAPHQL_ENABLED_APIS: 'metadata,graphql,metrics',
    OTLP_BASE: `http://127.0.0.1:${receiver.port}`,
    OTLP_TOKEN: 'collector-secret',
    // The SDK's batch delay (5 s by default), shortened so the test does not wait.
    OTEL_BSP_SCHEDULE_DELAY: '100',
  });
  await ok('pg_track_table', { table: 'author' });
  await ok('set_custom_types', { objects: [{ name: 'Greeting', fields: [{ name: 'greeting', type: 'String!' }] }] });
  await ok('create_action', { name: 'hello', definition: { kind: 'synchronous', type: 'query', handler: handler.url('/hello'), output_type: 'Greeting!', arguments: [{ name: 'name', type: 'String!' }] } });
});

afterAll(async () => {
  await engine?.stop();
  await db?.drop();
  await Promise.all([receiver.stop(), handler.stop()]);
});

describe('OpenTelemetry settings', () => {
  it.each([
    ['an unsupported protocol', { exporter_otlp: { protocol: 'grpc' } }, '$.args.exporter_otlp.protocol'],
    ['traces enabled without an endpoint', { status: 'enabled', data_types: ['traces'] }, '$.args'],
    ['an endpoint whose variable is unset', { status: 'enabled', data_types: ['traces'], exporter_otlp: { otlp_traces_endpoint: '{{NOPE}}/v1/traces' } }, '$.args'],
    ['a header whose variable is unset', { exporter_otlp: { headers: [{ name: 'a', value_from_env: 'NOPE' }] } }, '$.args'],
    ['a batch size of 0', { batch_span_processor: { max_export_batch_size: 0 } }, '$.args.batch_span_processor.max_export_batch_size'],
    ['an unknown data type', { data_types: ['events'] }, '$.args.data_types[0]'],
    ['an unknown propagator', { exporter_otlp: { traces_propagators: ['jaeger'] } }, '$.args.exporter_otlp.traces_propagators[0]'],
  ])('refuses %s with its path, storing nothing', async (_, args, path) => {
    // What the arguments cannot be read as is refused where it is; what they say that cannot hold, at the arguments (as every command).
    const r = await admin('set_opentelemetry_config', args);
    expect(r.status).toBe(400);
    expect(r.body.path).toBe(path);
    expect(await exported()).toBeUndefined();
  });

  it('refuses an unknown status, and enabling settings that do not resolve', async () => {
    expect((await admin('set_opentelemetry_status', 'on')).body.path).toBe('$.args');
    const r = await admin('set_opentelemetry_status', 'enabled');
    expect(r.status).toBe(200);
    await ok('set_opentelemetry_status', 'disabled');
    await ok('set_opentelemetry_config', { data_types: ['traces'] });
    const refused = await admin('set_opentelemetry_status', 'enabled');
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ path: '$.args', code: 'invalid-params', error: 'Traces export is enabled but traces endpoint missing' });
    expect(await exported()).toEqual({ data_types: ['traces'] });
  });

  it('stores and exports the settings as given, and replace_metadata checks them too', async () => {
    await ok('set_opentelemetry_config', CONFIG);
    expect(await exported()).toEqual(CONFIG);
    const whole = (await admin('export_metadata', {})).body;
    const bad = await admin('replace_metadata', { ...whole, opentelemetry: { ...CONFIG, exporter_otlp: { protocol: 'http/json' } } });
    expect(bad.status).toBe(400);
    expect(bad.body.path).toBe('$.args.opentelemetry.exporter_otlp.protocol');
    expect(await exported()).toEqual(CONFIG);
    await ok('replace_metadata', whole);
    expect(await exported()).toEqual(CONFIG);
  });
});

describe('spans', () => {
  it("continues the caller's trace: the request, authentication, plan, statement and the handler's call", async () => {
    await ok('set_opentelemetry_config', CONFIG);
    const traceId = hex(32);
    const callerSpan = hex(16);
    handler.calls.length = 0;
    const r = await engine.post('/v1/graphql', { query: QUERY }, { ...ADMIN, traceparent: `00-${traceId}-${callerSpan}-01`, 'x-request-id': 'req-42' });
    expect(r.body).toEqual({ data: { author: [{ id: 1 }], hello: { greeting: 'hello ann' } } });
    const spans = await spansOf(traceId, 5);
    const named = (name: string) => spans.filter((s) => s.name === name);
    const [root] = named('/v1/graphql');
    expect(root).toBeDefined();
    expect(root!.parentSpanId).toBe(callerSpan);
    expect(root!.kind).toBe(2);
    expect(root!.attributes).toMatchObject({ request_id: 'req-42', 'http.request.method': 'POST', 'http.response.status_code': 200 });
    expect(root!.resource).toMatchObject({ 'service.name': 'service-graphql-engine', 'deployment.environment': 'test' });
    // Every other span of the request hangs (maybe deeper) under the request's.
    const byId = new Map(spans.map((s) => [s.spanId, s]));
    const reachesRoot = (s: ReceivedSpan): boolean => s === root || (byId.has(s.parentSpanId) && reachesRoot(byId.get(s.parentSpanId)!));
    expect(spans.every(reachesRoot)).toBe(true);
    expect(named('authenticate')[0]!.parentSpanId).toBe(root!.spanId);
    expect(named('plan')[0]!.attributes).toMatchObject({ plan_cache: 'miss' });
    const statement = named('postgresql')[0]!;
    expect(statement.kind).toBe(3);
    expect(statement.attributes).toEqual({ 'db.system': 'postgresql', source: 'default' });
    const call = named('action hello')[0]!;
    expect(call.kind).toBe(3);
    expect(call.attributes).toMatchObject({ 'http.request.method': 'POST', 'http.response.status_code': 200 });
    // The handler got both W3C and B3 headers naming the call's span in the same trace.
    const headers = handler.callsTo('/hello')[0]!.headers;
    expect(headers.traceparent).toBe(`00-${traceId}-${call.spanId}-01`);
    expect(headers.b3).toBe(`${traceId}-${call.spanId}-1`);
    // The collector got the configured header, its value from the environment.
    expect(receiver.headers['x-collector-token']).toBe('collector-secret');
  });

  it('says plan_cache hit for a request whose plan is cached, and takes a B3 parent too', async () => {
    const traceId = hex(32);
    const callerSpan = hex(16);
    await engine.post('/v1/graphql', { query: QUERY }, { ...ADMIN, b3: `${traceId}-${callerSpan}-1` });
    const spans = await spansOf(traceId, 5);
    expect(spans.find((s) => s.name === '/v1/graphql')!.parentSpanId).toBe(callerSpan);
    expect(spans.find((s) => s.name === 'plan')!.attributes).toMatchObject({ plan_cache: 'hit' });
    // Without the caller's x-request-id, the request gets one of its own.
    expect(spans.find((s) => s.name === '/v1/graphql')!.attributes.request_id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("carries a mutation's trace into its events: their payload's trace_context, and their delivery's span", async () => {
    await ok('pg_create_event_trigger', { name: 'author_added', table: 'author', webhook: handler.url('/events'), insert: { columns: '*' } });
    const traceId = hex(32);
    const r = await engine.post('/v1/graphql', { query: 'mutation { insert_author_one(object: {id: 7, name: "eve"}) { id } }' }, { ...ADMIN, traceparent: `00-${traceId}-${hex(16)}-01` });
    expect(r.body).toEqual({ data: { insert_author_one: { id: 7 } } });
    const until = Date.now() + 10_000;
    while (handler.callsTo('/events').length === 0 && Date.now() < until) await new Promise((res) => setTimeout(res, 50));
    const [delivery] = handler.callsTo('/events');
    const event = (delivery!.body as { event: { trace_context: { trace_id: string; span_id: string } } }).event;
    // The ids of the mutation's request span, as the database recorded them in the transaction.
    const spans = await spansOf(traceId, 4);
    expect(event.trace_context).toEqual({ trace_id: traceId, span_id: spans.find((s) => s.name === '/v1/graphql')!.spanId });
    // The delivery is a client span of that trace, and the webhook is told so.
    expect(delivery!.headers.traceparent).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));
    await ok('pg_delete_event_trigger', { name: 'author_added' });
  });

  it('sends nothing while disabled', async () => {
    await ok('set_opentelemetry_status', 'disabled');
    handler.calls.length = 0;
    const traceId = hex(32);
    await engine.post('/v1/graphql', { query: QUERY }, { ...ADMIN, traceparent: `00-${traceId}-${hex(16)}-01` });
    await new Promise((r) => setTimeout(r, 700));
    expect(receiver.trace(traceId)).toEqual([]);
    expect(handler.callsTo('/hello')[0]!.headers.traceparent).toBeUndefined();
  });

  it('never fails nor slows a request when the collector is unreachable, and counts the spans it drops', async () => {
    await ok('set_opentelemetry_config', { ...CONFIG, exporter_otlp: { ...CONFIG.exporter_otlp, otlp_traces_endpoint: 'http://127.0.0.1:1/v1/traces' } });
    for (let i = 0; i < 20; i++) {
      const started = performance.now();
      const r = await engine.post('/v1/graphql', { query: QUERY }, ADMIN);
      expect(r.body.data.hello).toEqual({ greeting: 'hello ann' });
      expect(performance.now() - started).toBeLessThan(1000);
    }
    const until = Date.now() + 10_000;
    const warning = () => engine.logs.map((l) => JSON.parse(l.startsWith('{') ? l : '{}').detail ?? {}).find((d) => d.message === 'spans could not be sent to the OpenTelemetry collector');
    while (!warning() && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    expect(warning()?.dropped.send_failed).toBeGreaterThan(0);
    // And published as the well-known engine's metrics.
    const metrics = parsePrometheusText(await (await fetch(`${engine.url}/v1/metrics`)).text());
    expect(sampleValue(metrics, 'service_otel_dropped_spans', { reason: 'send_failed' })).toBeGreaterThan(0);
    expect(sampleValue(metrics, 'service_otel_sent_spans')).toBeGreaterThan(0);
  });
});
