/**
 * Health and configuration endpoints (docs/operations.md "Health and configuration"): `/healthz`
 * with its OK / WARN / ERROR answers and `strict=true`; `/healthz/sources` (admin); the `config`
 * API's `/v1alpha1/config` (admin); the `developer` API's `/dev/plan_cache` and
 * `/dev/subscriptions/extended`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../support/db.js';
import { startEngine, type Engine } from '../support/engine.js';

const ADMIN = { 'x-service-admin-secret': 'adm' };

let db: TestDatabase;
let engine: Engine;
let limited: Engine;

const get = async (e: Engine, path: string, headers: Record<string, string> = {}) => {
  const res = await fetch(e.url + path, { headers });
  const text = await res.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* text */
  }
  return { status: res.status, body };
};

beforeAll(async () => {
  db = await freshDatabase();
  await db.sql('CREATE TABLE a (id int PRIMARY KEY); CREATE TABLE b (id int PRIMARY KEY);');
  const common = { SERVICE_GRAPHQL_DATABASE_URL: db.url, SERVICE_GRAPHQL_ADMIN_SECRET: 'adm' };
  [engine, limited] = await Promise.all([
    startEngine({ ...common, SERVICE_GRAPHQL_ENABLED_APIS: 'metadata,graphql,config,developer', SERVICE_GRAPHQL_LIVE_QUERIES_MULTIPLEXED_BATCH_SIZE: '7' }),
    startEngine({ ...common, SERVICE_GRAPHQL_ENABLED_APIS: 'metadata,graphql' }),
  ]);
  for (const table of ['a', 'b']) expect((await engine.metadata({ type: 'pg_track_table', args: { table } }, ADMIN)).status).toBe(200);
});

afterAll(async () => {
  await Promise.all([engine?.stop(), limited?.stop()]);
  await db?.drop();
});

describe('/healthz', () => {
  it('answers OK, then WARN (200) with an inconsistent object, ERROR (500) with strict=true, and OK again once fixed', async () => {
    expect(await get(engine, '/healthz')).toEqual({ status: 200, body: 'OK' });
    expect(await get(engine, '/healthz?strict=true')).toEqual({ status: 200, body: 'OK' });
    await db.sql('DROP TABLE b');
    expect((await engine.metadata({ type: 'reload_metadata', args: {} }, ADMIN)).body.is_consistent).toBe(false);
    expect(await get(engine, '/healthz')).toEqual({ status: 200, body: 'WARN: inconsistent objects in schema' });
    expect(await get(engine, '/healthz?strict=false')).toEqual({ status: 200, body: 'WARN: inconsistent objects in schema' });
    expect(await get(engine, '/healthz?strict=true')).toEqual({ status: 500, body: 'ERROR: inconsistent objects in schema' });
    await engine.metadata({ type: 'drop_inconsistent_metadata', args: {} }, ADMIN);
    expect(await get(engine, '/healthz?strict=true')).toEqual({ status: 200, body: 'OK' });
  });
});

describe('/healthz/sources', () => {
  it('is for an admin only', async () => {
    expect((await get(engine, '/healthz/sources')).status).toBe(401);
    expect((await get(engine, '/healthz/sources', { 'x-service-admin-secret': 'wrong' })).status).toBe(401);
  });

  it("reports each source's status: OK, or ERROR with the reason for one that cannot be reached", async () => {
    const exported = (await engine.metadata({ type: 'export_metadata', args: {} }, ADMIN)).body;
    const gone = { name: 'gone', kind: 'postgres', tables: [], configuration: { connection_info: { database_url: 'postgres://nobody:x@127.0.0.1:1/none' } } };
    expect((await engine.metadata({ type: 'replace_metadata', args: { allow_inconsistent_metadata: true, metadata: { ...exported, sources: [...exported.sources, gone] } } }, ADMIN)).status).toBe(200);
    const r = await get(engine, '/healthz/sources', ADMIN);
    expect(r).toEqual({
      status: 200,
      body: {
        default: { status: 'OK', error: null, timestamp: expect.any(String) },
        gone: { status: 'ERROR', error: { message: expect.stringContaining('ECONNREFUSED') }, timestamp: expect.any(String) },
      },
    });
    expect(new Date(r.body.default.timestamp).getTime()).toBeGreaterThan(Date.now() - 60_000);
    const logged = engine.logs.map((l) => JSON.parse(l)).filter((l) => l.type === 'health-check-log' && l.detail.source_name === 'gone');
    expect(logged.at(-1)).toMatchObject({ level: 'warn', detail: { status: 'ERROR' } });
    await engine.metadata({ type: 'replace_metadata', args: exported }, ADMIN);
    expect((await get(engine, '/healthz/sources', ADMIN)).body).toEqual({ default: { status: 'OK', error: null, timestamp: expect.any(String) } });
  });
});

describe('/v1alpha1/config', () => {
  it('is for an admin only, and answers 404 unless the config API is enabled', async () => {
    expect((await get(engine, '/v1alpha1/config')).status).toBe(401);
    expect((await get(engine, '/v1alpha1/config', { 'x-service-role': 'user', ...ADMIN })).status).toBe(400);
    expect((await get(limited, '/v1alpha1/config', ADMIN)).status).toBe(404);
  });

  it("describes the server's settings as the well-known engine does, never a secret", async () => {
    const r = await get(engine, '/v1alpha1/config', ADMIN);
    expect(r).toEqual({
      status: 200,
      body: {
        version: expect.stringMatching(/^\d+\.\d+\.\d+/),
        is_function_permissions_inferred: true,
        is_remote_schema_permissions_enabled: false,
        is_admin_secret_set: true,
        is_auth_hook_set: false,
        is_jwt_set: false,
        jwt: [],
        is_allow_list_enabled: false,
        live_queries: { batch_size: 7, refetch_delay: 1 },
        streaming_queries: { batch_size: 7, refetch_delay: 1 },
        console_assets_dir: null,
        experimental_features: [],
        is_prometheus_metrics_enabled: false,
        default_naming_convention: 'service-default',
        feature_flags: [],
        is_apollo_federation_enabled: false,
      },
    });
  });
});

describe('the developer API', () => {
  it('/dev/plan_cache lists the cached plans with their parameterized query hash', async () => {
    const q = { query: 'query Ids { a { id } }', operationName: 'Ids' };
    expect((await engine.post('/v1/graphql', q, ADMIN)).body).toEqual({ data: { a: [] } });
    expect((await get(engine, '/dev/plan_cache')).status).toBe(401);
    const r = await get(engine, '/dev/plan_cache', ADMIN);
    expect(r.status).toBe(200);
    expect(r.body.capacity).toBeGreaterThan(0);
    expect(r.body.entries).toContainEqual({ key: ['admin', 'Ids', q.query], plans: [{ operation: 'query', parameterized_query_hash: expect.stringMatching(/^[0-9a-f]{40}$/), steps: 1 }] });
    expect((await get(limited, '/dev/plan_cache', ADMIN)).status).toBe(404);
  });

  it('/dev/subscriptions/extended gives each multiplexer actor and the totals', async () => {
    expect((await get(engine, '/dev/subscriptions/extended')).status).toBe(401);
    expect(await get(engine, '/dev/subscriptions/extended', ADMIN)).toEqual({
      status: 200,
      body: { multiplexers: [{ actor: 1, queries: 0, cohorts: 0, subscribers: 0 }], totals: { queries: 0, cohorts: 0, subscribers: 0 } },
    });
  });
});
