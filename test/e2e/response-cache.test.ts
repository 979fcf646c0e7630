/**
 * The response cache of `@cached` queries, in the engine's memory (the default), end to end:
 * hits and their headers, keys that separate users and roles, `refresh`, clearing by key, family
 * and all, TTL expiry and its cap, refusal on mutations and subscriptions, eviction by a mutation
 * of the engine and by a write made in the database directly, the hit and miss counts in the
 * metrics, and a project exported by the well-known engine whose collections use `@cached`
 * (allow-list, RESTified endpoint) loading and serving. A tracked view gets no change capture, so
 * its answers change under a cached entry: what shows whether an answer came from the cache.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../support/db.js';
import { startEngine, type Engine } from '../support/engine.js';
import { until } from '../support/events.js';
import { parsePrometheusText, sampleValue } from '../support/prometheus-text.js';

const ADMIN = { 'x-service-admin-secret': 'admin-secret' };
const user = (id: string) => ({ ...ADMIN, 'x-service-role': 'user', 'x-service-user-id': id });
const reader = (id: string) => ({ ...ADMIN, 'x-service-role': 'reader', 'x-service-user-id': id });

let db: TestDatabase;
let engine: Engine;

interface Answer {
  status: number;
  body: any;
  cacheControl: string | null;
  key: string | null;
  family: string | null;
}

async function ask(query: string, headers: Record<string, string> = ADMIN, variables?: Record<string, unknown>): Promise<Answer> {
  const r = await fetch(`${engine.url}/v1/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ query, ...(variables ? { variables } : {}) }) });
  return { status: r.status, body: await r.json(), cacheControl: r.headers.get('cache-control'), key: r.headers.get('x-service-query-cache-key'), family: r.headers.get('x-service-query-family-cache-key') };
}

const clear = async (search = '', headers: Record<string, string> = ADMIN) => {
  const r = await fetch(`${engine.url}/pro/cache/clear${search}`, { method: 'POST', headers });
  return { status: r.status, body: (await r.json()) as any };
};

/** The view's current value, set in the database directly (no change capture on a view). */
const setShown = (v: string) => db.sql(`UPDATE shown SET v = $1`, [v]);
const VIEW = 'query Shown @cached { shown_view { v } }';
const shown = (a: Answer) => a.body.data?.shown_view?.[0]?.v;

async function cacheCounts(): Promise<{ hit: number; miss: number }> {
  const r = await fetch(`${engine.url}/v1/metrics`);
  const families = parsePrometheusText(await r.text());
  const count = (status: string) => sampleValue(families, 'service_cache_request_count', { status }) ?? 0;
  return { hit: count('hit'), miss: count('miss') };
}

beforeAll(async () => {
  db = await freshDatabase();
  await db.sql(`
    CREATE TABLE note (id serial PRIMARY KEY, owner int NOT NULL, body text NOT NULL);
    INSERT INTO note (owner, body) VALUES (1, 'one'), (2, 'two');
    CREATE TABLE shown (v text NOT NULL);
    INSERT INTO shown VALUES ('a');
    CREATE VIEW shown_view AS SELECT v FROM shown;`);
  engine = await startEngine({ SERVICE_GRAPHQL_DATABASE_URL: db.url, SERVICE_GRAPHQL_ADMIN_SECRET: 'admin-secret', SERVICE_GRAPHQL_ENABLED_APIS: 'metadata,graphql,metrics' });
  const steps = [
    { type: 'pg_track_table', args: { table: 'note' } },
    { type: 'pg_track_table', args: { table: 'shown_view' } },
    { type: 'pg_create_select_permission', args: { table: 'note', role: 'user', permission: { columns: ['id', 'owner', 'body'], filter: { owner: { _eq: 'X-Service-User-Id' } } } } },
    { type: 'pg_create_select_permission', args: { table: 'note', role: 'reader', permission: { columns: ['id', 'body'], filter: {} } } },
  ];
  for (const step of steps) {
    const r = await engine.metadata(step, ADMIN);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
  }
});

afterAll(async () => {
  await engine?.stop();
  await db?.drop();
});

describe('@cached on /v1/graphql', () => {
  it('answers a repeated query from the cache, with its TTL and keys in the headers; whitespace does not make a new key', async () => {
    await setShown('first');
    const before = await cacheCounts();
    const miss = await ask(VIEW);
    expect(miss.body).toEqual({ data: { shown_view: [{ v: 'first' }] } });
    expect(miss.cacheControl).toBe('max-age=60');
    expect(miss.key).toMatch(/^[0-9a-f]{64}$/);
    expect(miss.family).toMatch(/^[0-9a-f]{64}$/);
    await setShown('second');
    const hit = await ask('query   Shown @cached {\n  shown_view {\n    v\n  }\n}');
    expect(shown(hit)).toBe('first');
    expect(hit.key).toBe(miss.key);
    expect(hit.cacheControl).toMatch(/^max-age=(59|60)$/);
    const after = await cacheCounts();
    expect(after.miss - before.miss).toBe(1);
    expect(after.hit - before.hit).toBe(1);
    // Without the directive: no cache, no headers.
    const plain = await ask('{ shown_view { v } }');
    expect(shown(plain)).toBe('second');
    expect(plain.cacheControl).toBeNull();
    expect(plain.key).toBeNull();
  });

  it("keys an answer by the session variables its plan reads and by role: one user's answer is never another's", async () => {
    const q = 'query Mine @cached { note(order_by: {id: asc}) { body } }';
    const one = await ask(q, user('1'));
    const two = await ask(q, user('2'));
    expect(one.body).toEqual({ data: { note: [{ body: 'one' }] } });
    expect(two.body).toEqual({ data: { note: [{ body: 'two' }] } });
    expect(one.key).not.toBe(two.key);
    expect((await ask(q, user('1'))).body).toEqual(one.body);
    // The reader's permission reads no session variable: one entry for every reader, not the users' nor the admin's.
    const r1 = await ask(q, reader('1'));
    const r2 = await ask(q, reader('2'));
    expect(r1.key).toBe(r2.key);
    expect(r1.body).toEqual({ data: { note: [{ body: 'one' }, { body: 'two' }] } });
    const admin = await ask(q);
    expect(new Set([one.key, two.key, r1.key, admin.key]).size).toBe(4);
  });

  it('keys by variable values; the family is the same for every value', async () => {
    const q = 'query ById($id: Int!) @cached { note_by_pk(id: $id) { body } }';
    const a = await ask(q, ADMIN, { id: 1 });
    const b = await ask(q, ADMIN, { id: 2 });
    expect(a.body.data.note_by_pk.body).toBe('one');
    expect(b.body.data.note_by_pk.body).toBe('two');
    expect(a.key).not.toBe(b.key);
    expect(a.family).toBe(b.family);
  });

  it('refresh: true fetches again and stores what it read', async () => {
    await setShown('r1');
    await clear();
    expect(shown(await ask(VIEW))).toBe('r1');
    await setShown('r2');
    expect(shown(await ask(VIEW))).toBe('r1');
    const refreshed = await ask('query Shown @cached(refresh: true) { shown_view { v } }');
    expect(shown(refreshed)).toBe('r2');
    await setShown('r3');
    expect(shown(await ask(VIEW))).toBe('r2');
  });

  it('clears one key, one family or everything (admin only)', async () => {
    await clear();
    await setShown('c1');
    const cached = await ask(VIEW);
    const other = await ask('query Other @cached { shown_view { v } }');
    await setShown('c2');
    expect((await clear('', {})).status).toBe(401);
    expect((await clear('', { 'x-service-role': 'user', 'x-service-user-id': '1' })).status).toBe(401);
    expect(shown(await ask(VIEW))).toBe('c1');

    expect(await clear(`?key=${cached.key}`)).toEqual({ status: 200, body: { message: 'success', cleared: 1 } });
    expect(shown(await ask(VIEW))).toBe('c2');
    expect(shown(await ask('query Other @cached { shown_view { v } }'))).toBe('c1');

    await setShown('c3');
    expect(await clear(`?family=${other.family}`)).toEqual({ status: 200, body: { message: 'success', cleared: 1 } });
    expect(shown(await ask('query Other @cached { shown_view { v } }'))).toBe('c3');
    expect(shown(await ask(VIEW))).toBe('c2');

    await setShown('c4');
    const all = await clear();
    expect(all.status).toBe(200);
    expect(all.body.cleared).toBeGreaterThanOrEqual(2);
    expect(shown(await ask(VIEW))).toBe('c4');
  });

  it('keeps an entry for its ttl, and caps a ttl past SERVICE_GRAPHQL_CACHE_MAX_ENTRY_TTL (3600 by default)', async () => {
    await clear();
    await setShown('t1');
    const short = 'query Short @cached(ttl: 1) { shown_view { v } }';
    const first = await ask(short);
    expect(first.cacheControl).toBe('max-age=1');
    await setShown('t2');
    expect(shown(await ask(short))).toBe('t1');
    await new Promise((r) => setTimeout(r, 1_100));
    expect(shown(await ask(short))).toBe('t2');
    expect((await ask('query Long @cached(ttl: 100000) { shown_view { v } }')).cacheControl).toBe('max-age=3600');
  });

  it('refuses @cached on a mutation or a subscription, and bad arguments', async () => {
    const m = await ask('mutation M @cached { insert_note_one(object: {owner: 1, body: "x"}) { id } }');
    expect(m.body.errors[0]).toEqual({ message: 'the @cached directive applies to queries only, not to a mutation', extensions: { path: '$', code: 'validation-failed' } });
    const s = await ask('subscription S @cached { note { id } }');
    expect(s.body.errors[0].message).toBe('the @cached directive applies to queries only, not to a subscription');
    expect((await ask('query Q @cached(ttl: "x") { note { id } }')).body.errors[0].message).toBe('the argument "ttl" of @cached must be an Int literal');
    expect((await ask('query Q @cached(forever: true) { note { id } }')).body.errors[0].message).toBe('the @cached directive has no argument "forever"');
    // On a field it is as unknown as any other directive.
    expect((await ask('query Q { note @cached { id } }')).body.errors[0].extensions.code).toBe('validation-failed');
    expect((await db.sql(`SELECT count(*)::int AS n FROM note WHERE body = 'x'`)).rows[0].n).toBe(0);
  });

  it('evicts the answers that read a table when a mutation of the engine writes it', async () => {
    const q = 'query All @cached { note(order_by: {id: asc}) { body } }';
    const before = (await ask(q)).body.data.note.length;
    expect((await ask(q)).body.data.note.length).toBe(before);
    const m = await ask('mutation { insert_note_one(object: {owner: 3, body: "through the engine"}) { id } }');
    expect(m.body.data.insert_note_one.id).toBeGreaterThan(0);
    const after = await ask(q);
    expect(after.body.data.note.length).toBe(before + 1);
    expect(after.cacheControl).toBe('max-age=60');
  });

  it('evicts them too when the table is written in the database directly', async () => {
    const q = 'query Direct @cached { note(where: {owner: {_eq: 9}}) { body } }';
    expect((await ask(q)).body.data.note).toEqual([]);
    const before = await cacheCounts();
    expect((await ask(q)).body.data.note).toEqual([]);
    expect((await cacheCounts()).hit).toBe(before.hit + 1);
    await db.sql(`INSERT INTO note (owner, body) VALUES (9, 'by psql')`);
    await until('the psql write evicts the entry', async () => (await ask(q)).body.data.note.length === 1);
  });

  it('answers @cached queries on GET too', async () => {
    await clear();
    const url = `${engine.url}/v1/graphql?query=${encodeURIComponent(VIEW)}`;
    const a = await fetch(url, { headers: ADMIN });
    const b = await fetch(url, { headers: ADMIN });
    expect(a.headers.get('cache-control')).toBe('max-age=60');
    expect(b.headers.get('x-service-query-cache-key')).toBe(a.headers.get('x-service-query-cache-key'));
  });
});

describe('a project exported by the well-known engine whose collections use @cached', () => {
  it('loads, and its allow-list and RESTified endpoint serve from the cache', async () => {
    const exported = (await engine.metadata({ type: 'export_metadata', args: {} }, ADMIN)).body;
    const doc = {
      ...exported,
      query_collections: [{ name: 'allowed-queries', definition: { queries: [{ name: 'shown', query: 'query shown @cached(ttl: 120) { shown_view { v } }' }] } }],
      allowlist: [{ collection: 'allowed-queries' }],
      rest_endpoints: [{ name: 'shown', url: 'shown', methods: ['GET'], definition: { query: { collection_name: 'allowed-queries', query_name: 'shown' } }, comment: null }],
    };
    const replaced = await engine.metadata({ type: 'replace_metadata', args: doc }, ADMIN);
    expect(replaced.status, JSON.stringify(replaced.body)).toBe(200);
    expect((await engine.metadata({ type: 'get_inconsistent_metadata', args: {} }, ADMIN)).body.is_consistent).toBe(true);

    await setShown('rest1');
    const first = await fetch(`${engine.url}/api/rest/shown`, { headers: ADMIN });
    expect(await first.json()).toEqual({ shown_view: [{ v: 'rest1' }] });
    expect(first.headers.get('cache-control')).toBe('max-age=120');
    await setShown('rest2');
    const second = await fetch(`${engine.url}/api/rest/shown`, { headers: ADMIN });
    expect(await second.json()).toEqual({ shown_view: [{ v: 'rest1' }] });
    expect(second.headers.get('x-service-query-cache-key')).toBe(first.headers.get('x-service-query-cache-key'));
  });
});

describe('the in-process store under its limits', () => {
  let small: Engine;
  afterAll(async () => {
    await small?.stop();
  });

  it('stores no answer past SERVICE_GRAPHQL_CACHE_MAX_ENTRY_SIZE, and drops the least recently used past SERVICE_GRAPHQL_CACHE_MAX_SIZE', async () => {
    await setShown('x1');
    // Every operation below answers this same `data` text.
    const raw = await (await fetch(`${engine.url}/v1/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...ADMIN }, body: JSON.stringify({ query: '{ shown_view { v } }' }) })).text();
    const size = Buffer.byteLength(raw) - '{"data":}'.length;
    small = await startEngine({
      SERVICE_GRAPHQL_DATABASE_URL: db.url,
      SERVICE_GRAPHQL_ADMIN_SECRET: 'admin-secret',
      SERVICE_GRAPHQL_CACHE_MAX_SIZE: String(Math.floor(2.5 * size)),
      SERVICE_GRAPHQL_CACHE_MAX_ENTRY_SIZE: String(size + 5),
      SERVICE_GRAPHQL_CACHE_MAX_ENTRY_TTL: '30',
    });
    const on = async (name: string) => {
      const r = await fetch(`${small.url}/v1/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...ADMIN }, body: JSON.stringify({ query: `query ${name} @cached(ttl: 100) { shown_view { v } }` }) });
      return { v: ((await r.json()) as any).data.shown_view[0].v as string, cacheControl: r.headers.get('cache-control') };
    };
    expect(await on('A')).toEqual({ v: 'x1', cacheControl: 'max-age=30' });
    await on('B');
    await on('A');
    // C pushes out B, the least recently used.
    await on('C');
    await setShown('x2');
    expect((await on('A')).v).toBe('x1');
    expect((await on('C')).v).toBe('x1');
    expect((await on('B')).v).toBe('x2');
    // Too big to store: answered, no cache headers.
    const big = await fetch(`${small.url}/v1/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...ADMIN }, body: JSON.stringify({ query: 'query Big @cached { note { id body owner } }' }) });
    expect(((await big.json()) as any).data.note.length).toBeGreaterThan(2);
    expect(big.headers.get('cache-control')).toBeNull();
  });
});
