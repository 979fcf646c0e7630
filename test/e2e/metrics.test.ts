/**
 * `/v1/metrics` end to end: an engine with the `metrics` API and a secret, known traffic (queries
 * on two sources, a failing query, a request refused by authentication, a mutation, subscriptions
 * opened and closed over graphql-ws on two multiplexer actors, events delivered and failed), then
 * a scrape parsed as Prometheus' text format and its values checked, summed across the threads
 * (front, multiplexers, trigger delivery). The secret is required; an engine without the API
 * answers 404. `set_metrics_config` / `remove_metrics_config` are stored and exported.
 */
import type { Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../auth/http-server.js';
import { freshDatabase, type TestDatabase } from '../support/db.js';
import { startEngine, type Engine } from '../support/engine.js';
import { until } from '../support/events.js';
import { connect, subscribe } from '../support/graphql-ws.js';
import { parsePrometheusText, sampleValue, type Family } from '../support/prometheus-text.js';

const SECRET = 'scrape-secret';
const ADMIN = { 'x-service-admin-secret': 'admin-secret' };

let db: TestDatabase;
let second: TestDatabase;
let engine: Engine;
let hook: TestServer;

const metadata = (body: unknown) => engine.metadata(body, ADMIN);
const graphql = (query: string, headers: Record<string, string> = ADMIN, operationName?: string) => engine.post('/v1/graphql', { query, ...(operationName ? { operationName } : {}) }, headers);

async function scrape(headers: Record<string, string> = { authorization: `Bearer ${SECRET}` }): Promise<{ status: number; contentType: string | null; requestId: string | null; text: string }> {
  const r = await fetch(`${engine.url}/v1/metrics`, { headers });
  return { status: r.status, contentType: r.headers.get('content-type'), requestId: r.headers.get('x-request-id'), text: await r.text() };
}

async function metrics(): Promise<Map<string, Family>> {
  const r = await scrape();
  expect(r.status, r.text).toBe(200);
  return parsePrometheusText(r.text);
}

beforeAll(async () => {
  [db, second] = await Promise.all([freshDatabase(), freshDatabase()]);
  await db.sql(`CREATE TABLE note (id serial PRIMARY KEY, body text NOT NULL)`);
  await second.sql(`CREATE TABLE item (id int PRIMARY KEY); INSERT INTO item VALUES (1), (2)`);
  hook = await startServer((call) => (call.url.startsWith('/bad') ? { status: 500, body: 'no' } : { status: 200, body: '{}' }));
  engine = await startEngine({
    SERVICE_GRAPHQL_DATABASE_URL: db.url,
    SECOND_URL: second.url,
    SERVICE_GRAPHQL_ADMIN_SECRET: 'admin-secret',
    SERVICE_GRAPHQL_ENABLED_APIS: 'metadata,graphql,metrics',
    SERVICE_GRAPHQL_METRICS_SECRET: SECRET,
    SERVICE_GRAPHQL_EVENTS_FETCH_INTERVAL: '100',
    SERVICE_GRAPHQL_LIVE_QUERIES_MULTIPLEXED_REFETCH_INTERVAL: '100',
    SERVICE_GRAPHQL_LIVE_QUERIES_MULTIPLEXERS: '2',
  });
  const steps = [
    { type: 'pg_track_table', args: { table: 'note' } },
    { type: 'pg_add_source', args: { name: 'second', configuration: { connection_info: { database_url: { from_env: 'SECOND_URL' } } } } },
    { type: 'pg_track_table', args: { source: 'second', table: 'item' } },
    { type: 'pg_create_event_trigger', args: { name: 'delivered', table: 'note', webhook: hook.url.replace('/auth', '/ok'), insert: { columns: '*' } } },
    { type: 'pg_create_event_trigger', args: { name: 'refused', table: 'note', webhook: hook.url.replace('/auth', '/bad'), insert: { columns: '*' }, retry_conf: { num_retries: 0 } } },
  ];
  for (const step of steps) {
    const r = await metadata(step);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
  }
});

afterAll(async () => {
  await engine?.stop();
  await hook?.close();
  await Promise.all([db?.drop(), second?.drop()]);
});

describe('/v1/metrics', () => {
  it('refuses a scrape without the bearer secret, or with another one', async () => {
    for (const headers of [{}, { authorization: 'Bearer wrong' }, { authorization: SECRET }, ADMIN] as Record<string, string>[]) {
      const r = await scrape({ ...headers, 'x-request-id': 'scrape-1' });
      expect(r.status).toBe(401);
      // Answered like every other route: the request's id echoed.
      expect(r.requestId).toBe('scrape-1');
      expect(JSON.parse(r.text)).toMatchObject({ path: '$', code: 'access-denied' });
    }
  });

  it('counts known traffic, summed over the front thread, both multiplexer actors and the trigger-delivery actor', async () => {
    // Three queries (two sources), one failing validation, one refused by authentication, one mutation.
    for (const q of ['{ note { id } }', '{ note_aggregate { aggregate { count } } }', '{ item { id } }']) expect((await graphql(q)).body.data).toBeDefined();
    expect((await graphql('{ no_such_field }')).body.errors).toBeDefined();
    expect((await graphql('{ note { id } }', { 'x-service-admin-secret': 'wrong' })).status).toBe(401);
    expect((await graphql('mutation { insert_note_one(object: {body: "x"}) { id } }')).body.data.insert_note_one.id).toBe(1);

    // Two subscriptions (a live query with an operation name, a stream), on one socket.
    const clients: Client[] = [];
    const client = connect(engine, clients, ADMIN);
    // The operation name as the request gives it (the well-known engine's `operation_name` label).
    const notes: any[] = [];
    client.subscribe({ query: 'subscription Notes { note { id } }', operationName: 'Notes' }, { next: (v) => notes.push(v), error: () => {}, complete: () => {} });
    const stream = subscribe(client, 'subscription { item_stream(batch_size: 10, cursor: {initial_value: {id: 0}}) { id } }');
    expect((await until('the live result', () => notes[0])).data.note).toEqual([{ id: 1 }]);
    expect((await stream.next()).data.item_stream).toEqual([{ id: 1 }, { id: 2 }]);

    // Both events delivered once each (the refused one is not retried).
    await until('both deliveries', () => hook.calls.filter((c) => c.url.startsWith('/ok') || c.url.startsWith('/bad')).length === 2 || undefined);
    let m = await until('the deliveries counted', async () => {
      const m = await metrics();
      return sampleValue(m, 'service_event_processed_total', { trigger_name: 'refused' }) === 1 ? m : undefined;
    });

    const requests = (operation_type: string, response_status: string) => sampleValue(m, 'service_graphql_requests_total', { operation_type, response_status });
    expect(m.get('service_graphql_requests_total')!.type).toBe('counter');
    expect([requests('query', 'success'), requests('mutation', 'success'), requests('unknown', 'failed'), requests('subscription', 'success')]).toEqual([3, 1, 2, 2]);
    expect(requests('query', 'failed')).toBeUndefined();
    const execution = m.get('service_graphql_execution_time_seconds')!;
    expect(execution.type).toBe('histogram');
    expect(execution.samples.filter((s) => s.name.endsWith('_bucket') && s.labels.operation_type === 'query').map((s) => s.labels.le)).toEqual(['0.01', '0.03', '0.1', '0.3', '1', '3', '10', '+Inf']);
    expect(sampleValue(m, 'service_graphql_execution_time_seconds_count', { operation_type: 'query' })).toBe(3);
    expect(sampleValue(m, 'service_graphql_execution_time_seconds_count', { operation_type: 'mutation' })).toBe(1);
    expect(sampleValue(m, 'service_graphql_execution_time_seconds_count', { operation_type: 'unknown' })).toBeUndefined();

    // The subscriptions, counted on the multiplexer actors.
    expect(m.get('service_active_subscriptions')!.type).toBe('gauge');
    const liveLabels = m.get('service_active_subscriptions')!.samples.find((s) => s.labels.subscription_kind === 'live-query')!.labels;
    expect(liveLabels.operation_name).toBe('Notes');
    expect(liveLabels.parameterized_query_hash).toMatch(/^[0-9a-f]{40}$/);
    expect(sampleValue(m, 'service_active_subscriptions', { subscription_kind: 'live-query' })).toBe(1);
    expect(sampleValue(m, 'service_active_subscriptions', { subscription_kind: 'streaming' })).toBe(1);
    expect(sampleValue(m, 'service_active_subscription_pollers', { subscription_kind: 'live-query' })).toBe(1);
    expect(sampleValue(m, 'service_active_subscription_pollers', { subscription_kind: 'streaming' })).toBe(1);
    expect(sampleValue(m, 'service_active_subscription_pollers_in_error_state', { subscription_kind: 'live-query' })).toBe(0);
    expect(sampleValue(m, 'service_subscription_total_time_seconds_count', { subscription_kind: 'live-query', operation_name: 'Notes' })).toBeGreaterThanOrEqual(1);
    expect(sampleValue(m, 'service_subscription_db_execution_time_seconds_count', { subscription_kind: 'streaming' })).toBeGreaterThanOrEqual(1);
    expect(sampleValue(m, 'service_websocket_connections')).toBe(1);
    expect(sampleValue(m, 'service_websocket_messages_received_bytes_total')).toBeGreaterThan(100);
    expect(sampleValue(m, 'service_websocket_messages_sent_bytes_total')).toBeGreaterThan(50);

    // HTTP: the scrape itself is not counted, nothing else is in flight.
    expect(sampleValue(m, 'service_http_connections')).toBe(0);
    expect(sampleValue(m, 'service_http_request_bytes_total')).toBeGreaterThan(100);
    expect(sampleValue(m, 'service_http_response_bytes_total')).toBeGreaterThan(100);

    // Events, counted on the trigger-delivery actor.
    const events = (name: string, labels: Record<string, string>) => sampleValue(m, name, { source_name: 'default', ...labels });
    expect(events('service_event_invocations_total', { trigger_name: 'delivered', status: 'success' })).toBe(1);
    expect(events('service_event_invocations_total', { trigger_name: 'refused', status: 'failed' })).toBe(1);
    expect(events('service_event_processed_total', { trigger_name: 'delivered', status: 'success' })).toBe(1);
    expect(events('service_event_webhook_processing_time_seconds_count', { trigger_name: 'delivered' })).toBe(1);
    expect(events('service_event_processing_time_seconds_count', { trigger_name: 'refused' })).toBe(1);
    expect(events('service_event_queue_time_seconds_count', { trigger_name: 'delivered' })).toBe(1);
    expect(m.get('service_event_processing_time_seconds')!.samples.filter((s) => s.name.endsWith('_bucket') && s.labels.trigger_name === 'delivered').map((s) => s.labels.le)).toEqual(['0.01', '0.03', '0.1', '0.3', '1', '3', '10', '30', '100', '+Inf']);
    expect(sampleValue(m, 'service_event_trigger_http_workers')).toBe(0);

    // Two sources, so two pools (the front thread's, plus the multiplexers' for their subscriptions).
    expect(sampleValue(m, 'service_postgres_connections', { source_name: 'default', role: 'primary' })).toBeGreaterThanOrEqual(1);
    expect(sampleValue(m, 'service_postgres_connections', { source_name: 'second', role: 'primary' })).toBeGreaterThanOrEqual(1);
    // The process defaults.
    expect(sampleValue(m, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);

    // Closed: no subscriber, no poller, no socket.
    await Promise.all(clients.map((c) => c.dispose()));
    m = await until('the subscriptions gone', async () => {
      const m = await metrics();
      return sampleValue(m, 'service_websocket_connections') === 0 && sampleValue(m, 'service_active_subscription_pollers', { subscription_kind: 'live-query' }) === 0 ? m : undefined;
    });
    expect(sampleValue(m, 'service_active_subscription_pollers', { subscription_kind: 'streaming' })).toBe(0);
    expect(m.get('service_active_subscriptions')!.samples).toEqual([]);
  });

  it('is not served when the metrics API is not enabled', async () => {
    const other = await startEngine({ SERVICE_GRAPHQL_DATABASE_URL: db.url, SECOND_URL: second.url, SERVICE_GRAPHQL_ADMIN_SECRET: 'admin-secret', SERVICE_GRAPHQL_METRICS_SECRET: SECRET, SERVICE_GRAPHQL_EVENTS_FETCH_INTERVAL: '0' });
    try {
      const r = await fetch(`${other.url}/v1/metrics`, { headers: { authorization: `Bearer ${SECRET}` } });
      expect(r.status).toBe(404);
    } finally {
      await other.stop();
    }
  });

  it('leaves the operation labels out when high-cardinality labels are off', async () => {
    const other = await startEngine({
      SERVICE_GRAPHQL_DATABASE_URL: db.url,
      SECOND_URL: second.url,
      SERVICE_GRAPHQL_ADMIN_SECRET: 'admin-secret',
      SERVICE_GRAPHQL_ENABLED_APIS: 'graphql,metrics',
      SERVICE_GRAPHQL_METRICS_ENABLE_HIGH_CARDINALITY_LABELS: 'false',
      SERVICE_GRAPHQL_EVENTS_FETCH_INTERVAL: '0',
    });
    const clients: Client[] = [];
    try {
      const results = subscribe(connect(other, clients, ADMIN), 'subscription { note { id } }');
      expect((await results.next()).data.note).toBeDefined();
      // Without a secret the endpoint is open (as the well-known engine's), and says so in the log at boot.
      expect(other.logs.some((l) => l.includes('/v1/metrics is open to anyone'))).toBe(true);
      const m = parsePrometheusText(await (await fetch(`${other.url}/v1/metrics`)).text());
      expect(m.get('service_active_subscriptions')!.samples).toEqual([{ name: 'service_active_subscriptions', labels: { subscription_kind: 'live-query' }, value: 1 }]);
    } finally {
      await Promise.all(clients.map((c) => c.dispose()));
      await other.stop();
    }
  });

  it('refuses a bad SERVICE_GRAPHQL_METRICS_ENABLE_HIGH_CARDINALITY_LABELS at boot', async () => {
    await expect(startEngine({ SERVICE_GRAPHQL_DATABASE_URL: db.url, SERVICE_GRAPHQL_METRICS_ENABLE_HIGH_CARDINALITY_LABELS: 'maybe' })).rejects.toThrow(
      'SERVICE_GRAPHQL_METRICS_ENABLE_HIGH_CARDINALITY_LABELS / --metrics-enable-high-cardinality-labels: expected true or false, got \\"maybe\\"',
    );
  });
});

describe('set_metrics_config, remove_metrics_config', () => {
  const exported = async () => (await metadata({ type: 'export_metadata', args: {} })).body;

  it('stores and exports the setting; the default is left out; bad arguments change nothing', async () => {
    expect((await exported()).metrics_config).toBeUndefined();
    const set = await metadata({ type: 'set_metrics_config', args: { analyze_query_variables: true, analyze_response_body: false } });
    expect(set).toEqual({ status: 200, body: { message: 'success' } });
    expect((await exported()).metrics_config).toEqual({ analyze_query_variables: true, analyze_response_body: false });

    for (const args of [{ analyze_query_variables: true }, { analyze_query_variables: 'yes', analyze_response_body: false }, { analyze_query_variables: true, analyze_response_body: false, other: 1 }]) {
      const r = await metadata({ type: 'set_metrics_config', args });
      expect(r.status).toBe(400);
      expect(r.body.path).toMatch(/^\$\.args/);
    }
    expect((await exported()).metrics_config).toEqual({ analyze_query_variables: true, analyze_response_body: false });

    // replace_metadata keeps it (and checks it).
    const document = await exported();
    expect((await metadata({ type: 'replace_metadata', args: document })).status).toBe(200);
    expect((await exported()).metrics_config).toEqual({ analyze_query_variables: true, analyze_response_body: false });
    const bad = await metadata({ type: 'replace_metadata', args: { ...document, metrics_config: { analyze_query_variables: 1, analyze_response_body: false } } });
    expect(bad.status).toBe(400);
    expect(bad.body.path).toBe('$.args.metrics_config.analyze_query_variables');

    expect(await metadata({ type: 'remove_metrics_config', args: {} })).toEqual({ status: 200, body: { message: 'success' } });
    expect((await exported()).metrics_config).toBeUndefined();
    // Both false is the default: nothing is stored.
    expect((await metadata({ type: 'set_metrics_config', args: { analyze_query_variables: false, analyze_response_body: false } })).status).toBe(200);
    expect((await exported()).metrics_config).toBeUndefined();
  });
});
