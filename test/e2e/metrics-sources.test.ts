/**
 * `/v1/metrics`, the sources' metrics: `service_postgres_pool_wait_time` (a pool of one
 * connection and two slow queries at once: the second waits for the first),
 * `service_postgres_connection_init_time` (the front thread's connection and a multiplexer
 * actor's, summed), and `service_source_health` (0 while the database answers, 3 ERROR once it
 * is gone), as a real Prometheus text parser reads them.
 */
import type { Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../support/db.js';
import { startEngine, type Engine } from '../support/engine.js';
import { connect, subscribe } from '../support/graphql-ws.js';
import { parsePrometheusText, sampleValue, type Family } from '../support/prometheus-text.js';

const ADMIN = { 'x-service-admin-secret': 'admin-secret' };
const SLEEP_SECONDS = 0.6;

let db: TestDatabase;
let gone: TestDatabase;
let engine: Engine;
const clients: Client[] = [];

async function metrics(): Promise<Map<string, Family>> {
  const r = await fetch(`${engine.url}/v1/metrics`);
  const text = await r.text();
  expect(r.status, text).toBe(200);
  return parsePrometheusText(text);
}

beforeAll(async () => {
  [db, gone] = await Promise.all([freshDatabase(), freshDatabase()]);
  await db.sql(`CREATE TABLE note (id int PRIMARY KEY); INSERT INTO note VALUES (1); CREATE VIEW slow AS SELECT 1 AS id FROM pg_sleep(${SLEEP_SECONDS})`);
  engine = await startEngine({ SERVICE_GRAPHQL_DATABASE_URL: db.url, SERVICE_GRAPHQL_ADMIN_SECRET: 'admin-secret', SERVICE_GRAPHQL_ENABLED_APIS: 'metadata,graphql,metrics', SERVICE_GRAPHQL_LIVE_QUERIES_MULTIPLEXERS: '1' });
  for (const step of [
    // The same database as `default`, through a pool of one connection at most on the front thread.
    { type: 'pg_add_source', args: { name: 'one', configuration: { connection_info: { database_url: db.url, pool_settings: { max_connections: 1 } } } } },
    { type: 'pg_track_table', args: { source: 'one', table: 'note' } },
    { type: 'pg_track_table', args: { source: 'one', table: 'slow' } },
    { type: 'pg_add_source', args: { name: 'gone', configuration: { connection_info: { database_url: gone.url } } } },
  ]) {
    const r = await engine.metadata(step, ADMIN);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
  }
});

afterAll(async () => {
  for (const c of clients) await c.dispose();
  await engine?.stop();
  await Promise.all([db?.drop(), gone?.drop()]);
});

describe('the sources in /v1/metrics', () => {
  it('times the wait for a pooled connection and the making of connections, in every thread', async () => {
    const slow = () => engine.post('/v1/graphql', { query: '{ slow { id } }' }, ADMIN);
    const answers = await Promise.all([slow(), slow()]);
    for (const a of answers) expect(a.body).toEqual({ data: { slow: [{ id: 1 }] } });
    // A subscription: the multiplexer actor's own pool connects to the source too.
    const live = subscribe(connect(engine, clients, ADMIN), 'subscription { note { id } }');
    expect((await live.next()).data.note).toEqual([{ id: 1 }]);

    const m = await metrics();
    const one = { source_name: 'one', role: 'primary' };
    const wait = m.get('service_postgres_pool_wait_time')!;
    expect(wait.type).toBe('histogram');
    expect(wait.samples.filter((s) => s.name.endsWith('_bucket') && s.labels.source_name === 'one').map((s) => s.labels.le)).toEqual(['0.000001', '0.0001', '0.01', '0.1', '0.3', '1', '3', '10', '30', '100', '+Inf']);
    // Two acquisitions on the front thread, one by each poll of the multiplexer: the second query waited for the first one's sleep.
    expect(sampleValue(m, 'service_postgres_pool_wait_time_count', one)).toBeGreaterThanOrEqual(3);
    expect(sampleValue(m, 'service_postgres_pool_wait_time_sum', one)).toBeGreaterThan(SLEEP_SECONDS * 0.8);
    expect(sampleValue(m, 'service_postgres_pool_wait_time_bucket', { ...one, le: '0.3' })).toBeLessThan(sampleValue(m, 'service_postgres_pool_wait_time_count', one)!);
    // One connection on the front thread (a pool of one), at least one in the multiplexer actor: summed.
    expect(m.get('service_postgres_connection_init_time')!.type).toBe('histogram');
    expect(sampleValue(m, 'service_postgres_connection_init_time_count', one)).toBeGreaterThanOrEqual(2);
    expect(sampleValue(m, 'service_postgres_connection_init_time_sum', one)).toBeGreaterThan(0);
  });

  it("reports each source's health as /healthz/sources does: 0 OK, 3 ERROR once its database is gone", async () => {
    let m = await metrics();
    expect(m.get('service_source_health')!.type).toBe('gauge');
    expect(sampleValue(m, 'service_source_health', { source_name: 'one' })).toBe(0);
    expect(sampleValue(m, 'service_source_health', { source_name: 'gone' })).toBe(0);

    await gone.drop();
    m = await metrics();
    expect(sampleValue(m, 'service_source_health', { source_name: 'gone' })).toBe(3);
    expect(sampleValue(m, 'service_source_health', { source_name: 'one' })).toBe(0);
    const health = await fetch(`${engine.url}/healthz/sources`, { headers: ADMIN });
    expect(((await health.json()) as any).gone.status).toBe('ERROR');
  });
});
