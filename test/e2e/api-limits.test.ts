/**
 * API limits (`set_api_limits`) on one engine: each limit refuses a request over it with its
 * code (depth, nodes, batch, time, rate), a role's own value overrides the global one, admin is
 * exempt, introspection does not count for depth; the limits hold on WebSocket operations (both
 * protocols) and RESTified endpoints; the rate limit's headers; a time limit cancels the
 * statement on the database; bad documents are refused with their path and store nothing; the
 * section goes through export, replace and clear. Choices: docs/behaviour.md "API limits".
 */
import type { Client } from 'graphql-ws';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useEngine } from '../support/fixture.js';
import { connect, subscribe } from '../support/graphql-ws.js';
import { connectWs, nextOf } from '../support/ws-client.js';

const fx = useEngine({ SERVICE_GRAPHQL_ADMIN_SECRET: 'adm' });
const admin = { 'x-service-admin-secret': 'adm' };
const as = (role: string, user = 'u1') => ({ ...admin, 'x-service-role': role, 'x-service-user-id': user });
const meta = (type: string, args: unknown) => fx.engine.metadata({ type, args }, admin);
const setLimits = async (args: unknown) => expect((await meta('set_api_limits', args)).body).toEqual({ message: 'success' });

async function graphql(body: unknown, headers: Record<string, string>) {
  const res = await fetch(`${fx.engine.url}/v1/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as any, headers: res.headers };
}
const code = (r: { body: any }) => r.body.errors?.[0]?.extensions?.code;

const DEEP = '{ author { articles { author { name } } } }'; // depth 3, 3 nodes
const SHALLOW = '{ author { name } }'; // depth 1, 1 node

beforeAll(async () => {
  await fx.db.sql(`CREATE TABLE author (id int PRIMARY KEY, name text NOT NULL);
    CREATE TABLE article (id int PRIMARY KEY, author_id int NOT NULL REFERENCES author (id), title text NOT NULL);
    INSERT INTO author VALUES (1, 'ann'); INSERT INTO article VALUES (1, 1, 'hello');
    CREATE VIEW slow AS SELECT 1 AS id, pg_sleep(5)::text AS nap;
    CREATE TABLE slow_write (id int PRIMARY KEY);
    CREATE FUNCTION nap() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_sleep(5); RETURN NEW; END $$;
    CREATE TRIGGER nap BEFORE INSERT ON slow_write FOR EACH ROW EXECUTE FUNCTION nap();`);
  const steps: [string, unknown][] = [
    ['pg_track_table', { table: 'author' }],
    ['pg_track_table', { table: 'article' }],
    ['pg_track_table', { table: 'slow' }],
    ['pg_track_table', { table: 'slow_write' }],
    ['pg_create_insert_permission', { table: 'slow_write', role: 'user', permission: { columns: ['id'], check: {} } }],
    ['pg_create_object_relationship', { table: 'article', name: 'author', using: { foreign_key_constraint_on: 'author_id' } }],
    ['pg_create_array_relationship', { table: 'author', name: 'articles', using: { foreign_key_constraint_on: { table: 'article', column: 'author_id' } } }],
    ['create_query_collection', { name: 'rest', definition: { queries: [{ name: 'deep', query: `query deep ${DEEP}` }, { name: 'shallow', query: `query shallow ${SHALLOW}` }] } }],
    ['create_rest_endpoint', { name: 'deep', url: 'deep', methods: ['GET'], definition: { query: { collection_name: 'rest', query_name: 'deep' } } }],
    ['create_rest_endpoint', { name: 'shallow', url: 'shallow', methods: ['GET'], definition: { query: { collection_name: 'rest', query_name: 'shallow' } } }],
  ];
  for (const role of ['user', 'editor', 'viewer']) {
    for (const table of ['author', 'article', 'slow', 'slow_write']) steps.push(['pg_create_select_permission', { table, role, permission: { columns: '*', filter: {} } }]);
  }
  for (const [type, args] of steps) expect((await meta(type, args)).body, type).toEqual({ message: 'success' });
});

describe('set_api_limits: bad documents', () => {
  it.each([
    [{ rate_limit: { global: { max_reqs_per_min: 10, unique_params: ['x-service-role'] } } }, '$.args.rate_limit.global.unique_params[0]'],
    [{ rate_limit: { global: { max_reqs_per_min: 10, unique_params: ['user-id'] } } }, '$.args.rate_limit.global.unique_params[0]'],
    [{ rate_limit: { global: { max_reqs_per_min: 10, unique_params: 'ip' } } }, '$.args.rate_limit.global.unique_params'],
    [{ rate_limit: { global: { max_reqs_per_min: 0 } } }, '$.args.rate_limit.global.max_reqs_per_min'],
    [{ depth_limit: { global: -1 } }, '$.args.depth_limit.global'],
    [{ node_limit: { global: 2.5 } }, '$.args.node_limit.global'],
    [{ time_limit: { global: 0 } }, '$.args.time_limit.global'],
    [{ batch_limit: { per_role: { user: 2 } } }, '$.args.batch_limit'],
    [{ depth_limit: { global: 3, per_role: { user: 'x' } } }, '$.args.depth_limit.per_role.user'],
    [{ depth_limit: { global: 3, extra: 1 } }, '$.args.depth_limit'],
    [{ disabled: 'no' }, '$.args.disabled'],
  ])('%j is refused at %s and nothing is stored', async (args, path) => {
    const r = await meta('set_api_limits', args);
    expect(r.status).toBe(400);
    expect(r.body.path).toBe(path);
    expect((await meta('export_metadata', {})).body.api_limits).toBeUndefined();
  });
});

describe('depth, node and batch limits', () => {
  beforeAll(() => setLimits({ depth_limit: { global: 2, per_role: { editor: 3 } }, node_limit: { global: 3, per_role: { editor: 10 } }, batch_limit: { global: 2 } }));

  it('refuses a query deeper than the role may go, with its code; a shallower one runs', async () => {
    const r = await graphql({ query: DEEP }, as('user'));
    expect(code(r)).toBe('depth-limit-exceeded');
    expect(r.body.errors[0].message).toMatch(/^depth limit of 2 exceeded/);
    expect((await graphql({ query: SHALLOW }, as('user'))).body).toEqual({ data: { author: [{ name: 'ann' }] } });
  });

  it('a role\'s own value overrides the global one; admin has no limit', async () => {
    expect((await graphql({ query: DEEP }, as('editor'))).body.data.author[0].articles[0].author.name).toBe('ann');
    expect((await graphql({ query: '{ author { articles { author { articles { id } } } } }' }, admin)).body.data).toBeDefined();
  });

  it('counts fragments where they are spread, and not introspection', async () => {
    const viaFragment = await graphql({ query: 'query { author { ...a } } fragment a on author { articles { author { name } } }' }, as('user'));
    expect(code(viaFragment)).toBe('depth-limit-exceeded');
    const introspection = await graphql({ query: '{ __schema { types { fields { type { ofType { name } } } } } }' }, as('user'));
    expect(introspection.body.data.__schema.types.length).toBeGreaterThan(0);
  });

  it('refuses more nodes (fields with a selection set) than the role may select', async () => {
    const r = await graphql({ query: '{ author { articles { id } } article { id } a2: article { id } }' }, as('user'));
    expect(code(r)).toBe('node-limit-exceeded');
    expect(r.body.errors[0].message).toMatch(/^node limit of 3 exceeded/);
    expect((await graphql({ query: '{ author { articles { id } } article { id } }' }, as('user'))).body.data).toBeDefined();
  });

  it('refuses a batch of more operations than the limit, and runs a batch within it', async () => {
    const three = await graphql([{ query: SHALLOW }, { query: SHALLOW }, { query: SHALLOW }], as('user'));
    expect(code(three)).toBe('batch-limit-exceeded');
    expect(three.body.errors[0].message).toMatch(/^batch limit of 2 exceeded/);
    const two = await graphql([{ query: SHALLOW }, { query: SHALLOW }], as('user'));
    expect(two.body).toHaveLength(2);
    expect((await graphql([{ query: SHALLOW }, { query: SHALLOW }, { query: SHALLOW }], admin)).body).toHaveLength(3);
  });

  it('answers 400 under application/graphql-response+json', async () => {
    const r = await graphql({ query: DEEP }, { ...as('user'), accept: 'application/graphql-response+json' });
    expect(r.status).toBe(400);
    expect(code(r)).toBe('depth-limit-exceeded');
  });
});

describe('on WebSocket operations and RESTified endpoints', () => {
  const clients: Client[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.dispose()));
  });
  beforeAll(() => setLimits({ depth_limit: { global: 2 }, rate_limit: { global: { max_reqs_per_min: 3, unique_params: ['x-service-user-id'] } } }));

  it('graphql-transport-ws: a query and a subscription over the depth limit fail with its code', async () => {
    const c = connect(fx.engine, clients, as('user', 'ws-depth'));
    const query = await subscribe(c, `query ${DEEP}`).next();
    expect(query.failed[0].extensions.code).toBe('depth-limit-exceeded');
    const sub = await subscribe(c, `subscription ${DEEP}`).next();
    expect(sub.failed[0].extensions.code).toBe('depth-limit-exceeded');
  });

  it('graphql-transport-ws: each operation counts against the rate limit', async () => {
    const c = connect(fx.engine, clients, as('user', 'ws-rate'));
    for (let i = 0; i < 3; i++) expect((await subscribe(c, `query ${SHALLOW}`).next()).data.author).toHaveLength(1);
    const over = await subscribe(c, `subscription ${SHALLOW}`).next();
    expect(over.failed[0].extensions.code).toBe('rate-limit-exceeded');
    expect(over.failed[0].message).toBe('rate limit of 3 exceeded');
  });

  it('the legacy graphql-ws protocol: a start over the limit gets error and complete', async () => {
    const ws = await connectWs(fx.engine.url.replace('http', 'ws') + '/v1/graphql', 'graphql-ws');
    ws.send({ type: 'connection_init', payload: { headers: as('user', 'legacy') } });
    await nextOf(ws, 'connection_ack');
    ws.send({ id: '1', type: 'start', payload: { query: DEEP } });
    expect((await nextOf(ws, 'error')).payload.errors[0].extensions.code).toBe('depth-limit-exceeded');
    expect(await nextOf(ws, 'complete')).toEqual({ id: '1', type: 'complete' });
    ws.close();
  });

  it('a RESTified endpoint: depth refused with 400, the rate limit with 429 and its headers', async () => {
    const rest = (path: string, user: string) => fetch(`${fx.engine.url}/api/rest/${path}`, { headers: as('user', user) });
    const deep = await rest('deep', 'rest-depth');
    expect(deep.status).toBe(400);
    expect(await deep.json()).toEqual({ path: '$', error: expect.stringMatching(/^depth limit of 2 exceeded/), code: 'depth-limit-exceeded' });
    for (let i = 0; i < 3; i++) {
      const r = await rest('shallow', 'rest-rate');
      expect(r.status).toBe(200);
      expect(r.headers.get('ratelimit-remaining')).toBe(String(2 - i));
    }
    const over = await rest('shallow', 'rest-rate');
    expect(over.status).toBe(429);
    expect(await over.json()).toEqual({ path: '$', error: 'rate limit of 3 exceeded', code: 'rate-limit-exceeded' });
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('rate limits over HTTP', () => {
  beforeAll(() =>
    setLimits({
      rate_limit: {
        global: { max_reqs_per_min: 3, unique_params: ['X-Service-User-Id'] },
        per_role: { editor: { max_reqs_per_min: 5 }, viewer: { max_reqs_per_min: 2, unique_params: 'IP' } },
      },
    }),
  );

  it('lets the limit through with RateLimit headers, then refuses with Retry-After; another user has a window of its own', async () => {
    for (let i = 0; i < 3; i++) {
      const r = await graphql({ query: SHALLOW }, as('user', 'rate-1'));
      expect(r.body.data).toBeDefined();
      expect(r.headers.get('ratelimit-limit')).toBe('3');
      expect(r.headers.get('ratelimit-remaining')).toBe(String(2 - i));
      expect(Number(r.headers.get('ratelimit-reset'))).toBeGreaterThan(0);
    }
    const over = await graphql({ query: SHALLOW }, as('user', 'rate-1'));
    expect(over.status).toBe(200);
    expect(over.body).toEqual({ errors: [{ message: 'rate limit of 3 exceeded', extensions: { path: '$', code: 'rate-limit-exceeded' } }] });
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThanOrEqual(59);
    expect(over.headers.get('ratelimit-remaining')).toBe('0');
    expect((await graphql({ query: SHALLOW }, { ...as('user', 'rate-1'), accept: 'application/graphql-response+json' })).status).toBe(429);
    expect((await graphql({ query: SHALLOW }, as('user', 'rate-2'))).body.data).toBeDefined();
    // GET counts in the same window.
    const get = await fetch(`${fx.engine.url}/v1/graphql?query=${encodeURIComponent(SHALLOW)}`, { headers: as('user', 'rate-2') });
    expect(((await get.json()) as any).data).toBeDefined();
    expect(get.headers.get('ratelimit-remaining')).toBe('1');
  });

  it('a role\'s own rate limit overrides the global one, keyed by the role alone or by IP', async () => {
    const editor = await Promise.all(Array.from({ length: 6 }, () => graphql({ query: SHALLOW }, as('editor', 'any'))));
    expect(editor.filter((r) => code(r) === 'rate-limit-exceeded')).toHaveLength(1);
    // Different users, one address: one window.
    const viewer = [];
    for (const user of ['v1', 'v2', 'v3']) viewer.push(await graphql({ query: '{ __typename }' }, as('viewer', user)));
    expect(viewer.map(code)).toEqual([undefined, undefined, 'rate-limit-exceeded']);
  });

  it('a @cached query counts against the rate limit, a hit too, and carries both the cache and the RateLimit headers', async () => {
    const cached = `query c @cached(ttl: 60) ${SHALLOW}`;
    const first = await graphql({ query: cached }, as('user', 'rate-5'));
    const hit = await graphql({ query: cached }, as('user', 'rate-5'));
    expect(hit.body).toEqual(first.body);
    expect(hit.headers.get('x-service-query-cache-key')).toBe(first.headers.get('x-service-query-cache-key'));
    expect(hit.headers.get('cache-control')).toMatch(/^max-age=\d+$/);
    expect([first, hit].map((r) => r.headers.get('ratelimit-remaining'))).toEqual(['2', '1']);
  });

  it('admin is never counted and gets no RateLimit headers', async () => {
    for (let i = 0; i < 8; i++) {
      const r = await graphql({ query: SHALLOW }, admin);
      expect(r.body.data).toBeDefined();
      expect(r.headers.get('ratelimit-limit')).toBeNull();
    }
  });

  it('disabled: true and remove_api_limits lift every limit', async () => {
    await setLimits({ disabled: true, rate_limit: { global: { max_reqs_per_min: 1 } } });
    for (let i = 0; i < 3; i++) expect((await graphql({ query: SHALLOW }, as('user', 'rate-3'))).body.data).toBeDefined();
    await setLimits({ rate_limit: { global: { max_reqs_per_min: 1 } } });
    expect((await graphql({ query: SHALLOW }, as('user', 'rate-4'))).body.data).toBeDefined();
    expect(code(await graphql({ query: SHALLOW }, as('user', 'rate-4')))).toBe('rate-limit-exceeded');
    expect((await meta('remove_api_limits', {})).body).toEqual({ message: 'success' });
    expect((await graphql({ query: SHALLOW }, as('user', 'rate-4'))).headers.get('ratelimit-limit')).toBeNull();
  });
});

describe('time limit', () => {
  beforeAll(() => setLimits({ time_limit: { global: 0.5, per_role: { editor: 10 } } }));
  const running = async () => Number((await fx.db.sql(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE state = 'active' AND query LIKE '%"slow"%' AND pid <> pg_backend_pid()`)).rows[0].n);

  it('fails the request at the limit and cancels its statement on the database', async () => {
    const started = Date.now();
    const r = await graphql({ query: '{ slow { id } }' }, as('user'));
    expect(Date.now() - started).toBeLessThan(2500);
    expect(code(r)).toBe('time-limit-exceeded');
    expect(r.body.errors[0].message).toBe('time limit of 0.5 seconds exceeded');
    // Cancelled, not abandoned: nothing of it runs on the server any more.
    const deadline = Date.now() + 2000;
    while ((await running()) > 0 && Date.now() < deadline) await new Promise((res) => setTimeout(res, 50));
    expect(await running()).toBe(0);
  });

  it('cancels a mutation past the limit: nothing is written', async () => {
    const r = await graphql({ query: 'mutation { insert_slow_write_one(object: {id: 1}) { id } }' }, as('user'));
    expect(code(r), JSON.stringify(r.body)).toBe('time-limit-exceeded');
    await new Promise((res) => setTimeout(res, 300));
    expect((await fx.db.sql('SELECT count(*)::int AS n FROM slow_write')).rows[0].n).toBe(0);
  });

  it('a quick query runs; admin has no time limit', async () => {
    expect((await graphql({ query: SHALLOW }, as('user'))).body.data).toBeDefined();
    const answer = graphql({ query: '{ slow(limit: 1) { id } }' }, { ...admin, 'x-service-role': 'admin' });
    // The probe of the test above sees a statement that runs.
    await new Promise((res) => setTimeout(res, 1000));
    expect(await running()).toBe(1);
    expect((await answer).body).toEqual({ data: { slow: [{ id: 1 }] } });
  }, 15_000);
});

describe('the api_limits section of the metadata', () => {
  const limits = {
    disabled: false,
    rate_limit: { global: { max_reqs_per_min: 100, unique_params: 'IP' }, per_role: { user: { max_reqs_per_min: 10, unique_params: ['x-service-user-id'] } } },
    depth_limit: { global: 5, per_role: { user: 3 } },
    node_limit: { global: 50 },
    time_limit: { global: 2.5 },
    batch_limit: { global: 4 },
  };

  it('is exported as set, replaced with the document, refused with its path when bad, and cleared', async () => {
    await setLimits(limits);
    const exported = (await meta('export_metadata', {})).body;
    expect(exported.api_limits).toEqual(limits);
    const other = { ...exported, api_limits: { depth_limit: { global: 7 } } };
    expect((await meta('replace_metadata', other)).body).toEqual({ message: 'success' });
    expect((await meta('export_metadata', {})).body.api_limits).toEqual({ disabled: false, depth_limit: { global: 7 } });
    const bad = await meta('replace_metadata', { ...exported, api_limits: { rate_limit: { global: { max_reqs_per_min: 5, unique_params: ['x-service-role'] } } } });
    expect(bad.status).toBe(400);
    expect(bad.body.path).toBe('$.args.api_limits.rate_limit.global.unique_params[0]');
    expect((await meta('export_metadata', {})).body.api_limits).toEqual({ disabled: false, depth_limit: { global: 7 } });
    expect((await meta('replace_metadata', exported)).body).toEqual({ message: 'success' });
    expect((await meta('export_metadata', {})).body).toEqual(exported);
    expect((await meta('clear_metadata', {})).body).toEqual({ message: 'success' });
    expect((await meta('export_metadata', {})).body.api_limits).toBeUndefined();
  });
});
