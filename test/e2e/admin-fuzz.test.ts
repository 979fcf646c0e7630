/**
 * Hostile administration requests: a seeded fuzzer over /v1/metadata, /v1/query and
 * /v2/query (mutations of valid requests: dropped keys, wrong types, odd and long
 * strings, deep nesting, random and non-JSON bodies), and the explicit cases behind it.
 * Invariants: never a 5xx, a refused request changes nothing, GraphQL keeps answering,
 * and the engine restarts on whatever it stored.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useEngine } from '../support/fixture.js';
import { startEngine, type Engine } from '../support/engine.js';

const fx = useEngine();

type Endpoint = '/v1/metadata' | '/v1/query' | '/v2/query';

/** Deterministic (mulberry32): a failing run can be replayed from its seed. */
function prng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Deep JSON is built as text: JSON.stringify itself overflows the stack on it. */
const deepNot = (n: number) => '{"_not":'.repeat(n) + '{"id":{"_eq":1}}' + '}'.repeat(n);
const deepArray = (n: number) => '['.repeat(n) + '1' + ']'.repeat(n);
const DEEP = '\u0000deep\u0000';

const SCHEMA = `
  CREATE TABLE author (id serial PRIMARY KEY, name text, rating integer);
  CREATE TABLE article (id serial PRIMARY KEY, title text, author_id integer REFERENCES author(id));
  CREATE TABLE scratch (id serial PRIMARY KEY, note text);
  CREATE FUNCTION author_title(a author) RETURNS text AS $$ SELECT a.name $$ LANGUAGE sql STABLE;
  INSERT INTO author (name, rating) VALUES ('ann', 5);
`;

const table = (name: string) => ({
  table: { schema: 'public', name },
  ...(name === 'article' ? { object_relationships: [{ name: 'author', using: { foreign_key_constraint_on: 'author_id' } }] } : {}),
  ...(name === 'author'
    ? {
        array_relationships: [{ name: 'articles', using: { foreign_key_constraint_on: { table: { schema: 'public', name: 'article' }, column: 'author_id' } } }],
        computed_fields: [{ name: 'title', definition: { function: { schema: 'public', name: 'author_title' } } }],
        select_permissions: [{ role: 'user', permission: { columns: ['id', 'name'], filter: { rating: { _gt: 1 } } } }],
      }
    : {}),
});

/** Valid requests of every kind the fuzzer starts from. */
function corpus(baseline: unknown): [Endpoint, Record<string, unknown>][] {
  return [
    ['/v1/metadata', { type: 'pg_track_table', args: { table: 'scratch', configuration: { custom_name: 'scratch_rows', column_config: { note: { custom_name: 'remark' } } } } }],
    ['/v1/metadata', { type: 'pg_create_object_relationship', args: { table: 'article', name: 'writer', using: { foreign_key_constraint_on: 'author_id' } } }],
    ['/v1/metadata', { type: 'pg_create_array_relationship', args: { table: 'author', name: 'posts', using: { manual_configuration: { remote_table: 'article', column_mapping: { id: 'author_id' } } } } }],
    ['/v1/metadata', { type: 'pg_create_select_permission', args: { table: 'article', role: 'reader', permission: { columns: ['id', 'title'], filter: { _and: [{ author: { rating: { _gt: 2 } } }, { _not: { title: { _like: '%x' } } }] } } } }],
    ['/v1/metadata', { type: 'pg_create_insert_permission', args: { table: 'article', role: 'writer', permission: { check: { author_id: 'X-Service-User-Id' }, columns: ['title'] } } }],
    ['/v1/metadata', { type: 'pg_add_computed_field', args: { table: 'author', name: 'shown_title', definition: { function: 'author_title' } } }],
    ['/v1/metadata', { type: 'pg_set_table_customization', args: { table: 'article', configuration: { custom_root_fields: { select: 'posts_list' }, custom_column_names: { title: 'heading' } } } }],
    ['/v1/metadata', { type: 'pg_rename_relationship', args: { table: 'article', name: 'author', new_name: 'author' } }],
    ['/v1/metadata', { type: 'replace_metadata', args: baseline }],
    ['/v1/metadata', { type: 'bulk', args: [{ type: 'pg_drop_select_permission', args: { table: 'article', role: 'reader' } }, { type: 'pg_create_select_permission', args: { table: 'article', role: 'reader', permission: { columns: '*', filter: {} } } }] }],
    ['/v1/metadata', { type: 'test_webhook_transform', args: { webhook_url: 'http://localhost/x', body: { a: [1, { b: 2 }] }, request_transform: { body: { action: 'transform', template: '{{$body.a}}' }, template_engine: 'Kriti' } } }],
    ['/v1/metadata', { type: 'export_metadata', version: 2, args: {} }],
    ['/v1/query', { type: 'create_object_relationship', args: { table: 'article', name: 'by', using: { foreign_key_constraint_on: 'author_id' } } }],
    ['/v1/query', { type: 'set_table_custom_fields', args: { table: 'scratch', custom_root_fields: { select: 'notes' }, custom_column_names: { note: 'text' } } }],
    ['/v1/query', { type: 'select', args: { table: 'author', columns: ['id', { name: 'articles', columns: ['title'] }], where: { _or: [{ id: { _eq: 1 } }, { _not: { name: { _is_null: true } } }] }, limit: 5 } }],
    ['/v1/query', { type: 'insert', args: { table: 'scratch', objects: [{ note: 'hello' }], returning: ['id'] } }],
    ['/v1/query', { type: 'bulk', args: [{ type: 'count', args: { table: 'author' } }, { type: 'select', args: { table: 'scratch', columns: ['*'] } }] }],
    ['/v2/query', { type: 'run_sql', args: { sql: "SELECT 1 AS one, 'two' AS two" } }],
    ['/v2/query', { type: 'run_sql', args: { sql: "INSERT INTO scratch (note) VALUES ('fuzz')", check_metadata_consistency: false } }],
    ['/v2/query', { type: 'update', args: { table: 'scratch', where: { id: { _gt: 0 } }, $set: { note: 'n' } } }],
  ];
}

const ODD = ['', ' ', '0', '%s%n', 'a-b', 'ünïcödé', '\u0000', '__typename', 'x'.repeat(100_000), '{{$body}}', '$', 'X-Service-User-Id'];

class Mutator {
  constructor(private readonly random: () => number) {}
  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.random() * xs.length)]!;
  }
  /** A value of another kind, an odd string, or a deep value (spliced in as text). */
  replacement(): unknown {
    const r = this.random();
    if (r < 0.4) return this.pick(ODD);
    if (r < 0.5) return DEEP;
    return this.pick([null, true, 0, -1, 1.5, 1e308, [], {}, [null], { _not: {} }, { '': 1 }]);
  }
  /** Every (parent, key) pair of a JSON value, to pick a place to mutate. */
  places(v: unknown, out: [Record<string, unknown> | unknown[], string | number][] = []): typeof out {
    if (Array.isArray(v)) v.forEach((x, i) => (out.push([v, i]), this.places(x, out)));
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) (out.push([v as Record<string, unknown>, k]), this.places(x, out));
    return out;
  }
  randomValue(depth = 0): unknown {
    const r = this.random();
    if (depth > 3 || r < 0.4) return this.replacement() === DEEP ? 'deep' : this.pick([1, 'a', null, false, ' ']);
    if (r < 0.7) return Array.from({ length: Math.floor(this.random() * 4) }, () => this.randomValue(depth + 1));
    return Object.fromEntries(Array.from({ length: Math.floor(this.random() * 4) }, () => [this.pick(['type', 'args', 'table', 'name', 'x', '']), this.randomValue(depth + 1)]));
  }
  /** The body text of a mutated request. */
  body(request: Record<string, unknown>): string {
    const r = this.random();
    if (r < 0.05) return this.pick(['', 'null', '[', '{"type":', 'not json', '\u0000', '{"type":"bulk","args":' + deepArray(3000) + '}']);
    if (r < 0.1) return JSON.stringify(this.randomValue());
    const copy = structuredClone(request);
    const mutations = 1 + Math.floor(this.random() * 3);
    for (let i = 0; i < mutations; i++) {
      const places = this.places(copy);
      if (places.length === 0) break;
      const [parent, key] = this.pick(places);
      if (this.random() < 0.3) {
        if (Array.isArray(parent)) parent.splice(key as number, 1);
        else delete parent[key as string];
      } else {
        (parent as Record<string | number, unknown>)[key] = this.replacement();
      }
    }
    const deep = this.random() < 0.5 ? deepNot(this.pick([300, 1000, 5000])) : deepArray(this.pick([300, 5000]));
    return JSON.stringify(copy).split(JSON.stringify(DEEP)).join(deep);
  }
}

async function resourceVersion(engine: Engine): Promise<number> {
  const r = await engine.metadata({ type: 'export_metadata', version: 2, args: {} });
  expect(r.status).toBe(200);
  return r.body.resource_version;
}

async function graphqlAnswers(engine: Engine): Promise<void> {
  const typename = await engine.post('/v1/graphql', { query: '{ __typename }' });
  expect(typename).toEqual({ status: 200, body: { data: { __typename: 'query_root' } } });
}

async function realQueryAnswers(engine: Engine): Promise<void> {
  const r = await engine.post('/v1/graphql', { query: '{ author(order_by: {id: asc}) { id name articles { id } } }' });
  expect(r.body).toEqual({ data: { author: [{ id: 1, name: 'ann', articles: [] }] } });
}

let baseline: Record<string, unknown>;

beforeAll(async () => {
  await fx.db.sql(SCHEMA);
  const exported = (await fx.engine.metadata({ type: 'export_metadata', args: {} })).body;
  exported.sources[0].tables = ['author', 'article'].map(table);
  baseline = exported;
  expect((await fx.engine.metadata({ type: 'replace_metadata', args: baseline })).status).toBe(200);
});

const restoreBaseline = async (engine: Engine) => expect((await engine.metadata({ type: 'replace_metadata', args: baseline })).status).toBe(200);

/** Stops the engine and starts another on the same database: it must boot on what was stored. */
async function restart(): Promise<void> {
  expect(await fx.engine.stop()).toBe(0);
  fx.engine = await startEngine({ SERVICE_GRAPHQL_DATABASE_URL: fx.db.url });
  await graphqlAnswers(fx.engine);
}

/** Writes a document into the store by hand (as an older engine or an operator could) and restarts on it. */
async function restartOnStored(text: string): Promise<void> {
  await fx.db.sql('UPDATE service_catalog.metadata SET metadata = $1, resource_version = resource_version + 1', [text]);
  await restart();
}

const logged = (...parts: string[]) => fx.engine.logs.some((l) => parts.every((p) => l.includes(p)));

describe('names that are not GraphQL names', () => {
  const names = [' ', '0', '%s%n', 'a-b', '', 'ünï', '\u0000'];

  it('are refused for relationships, with the path, on both APIs and inside replace_metadata and bulk', async () => {
    for (const name of names) {
      const meta = await fx.engine.metadata({ type: 'pg_create_object_relationship', args: { table: 'article', name, using: { foreign_key_constraint_on: 'author_id' } } });
      expect(meta.status).toBe(400);
      expect(meta.body).toMatchObject({ path: '$.args.name', code: 'parse-failed' });
      const query = await fx.engine.query({ type: 'create_object_relationship', args: { table: 'article', name, using: { foreign_key_constraint_on: 'author_id' } } });
      expect(query.body).toMatchObject({ path: '$.name', code: 'parse-failed' });
    }
    const doc = structuredClone(baseline) as any;
    doc.sources[0].tables[1].object_relationships[0].name = ' ';
    const replaced = await fx.engine.metadata({ type: 'replace_metadata', args: doc });
    expect(replaced.status).toBe(400);
    expect(replaced.body.path).toBe('$.args.sources[0].tables[1].object_relationships[0].name');
    const bulk = await fx.engine.metadata({ type: 'bulk', args: [{ type: 'pg_add_computed_field', args: { table: 'author', name: 'a-b', definition: { function: 'author_title' } } }] });
    expect(bulk.body).toMatchObject({ path: '$.args[0].args.name', code: 'parse-failed' });
    await graphqlAnswers(fx.engine);
  });

  it('are refused in custom names, root fields, column names and customization prefixes', async () => {
    const cases: [unknown, string][] = [
      [{ type: 'pg_set_table_customization', args: { table: 'author', configuration: { custom_name: 'a b' } } }, '$.args.configuration.custom_name'],
      [{ type: 'pg_set_table_customization', args: { table: 'author', configuration: { custom_root_fields: { select: '0' } } } }, '$.args.configuration.custom_root_fields.select'],
      [{ type: 'pg_set_table_customization', args: { table: 'author', configuration: { column_config: { name: { custom_name: '%s' } } } } }, '$.args.configuration.column_config.name.custom_name'],
      [{ type: 'pg_rename_relationship', args: { table: 'article', name: 'author', new_name: 'a-b' } }, '$.args.new_name'],
    ];
    for (const [body, path] of cases) expect((await fx.engine.metadata(body)).body).toMatchObject({ path, code: 'parse-failed' });
    const doc = structuredClone(baseline) as any;
    doc.sources[0].tables[0].configuration = { custom_column_names: { name: 'a-b' } };
    expect((await fx.engine.metadata({ type: 'replace_metadata', args: doc })).body.path).toBe('$.args.sources[0].tables[0].configuration.custom_column_names.name');
    doc.sources[0].tables[0].configuration = {};
    doc.sources[0].customization = { root_fields: { namespace: 'a-b' } };
    expect((await fx.engine.metadata({ type: 'replace_metadata', args: doc })).body.path).toBe('$.args.sources[0].customization.root_fields.namespace');
    await realQueryAnswers(fx.engine);
  });

  it('already stored (an older store row) make their object inconsistent, not the schema broken; the engine boots on them', async () => {
    const doc = structuredClone(baseline) as any;
    doc.sources[0].tables[1].object_relationships.push({ name: 'a-b', using: { foreign_key_constraint_on: 'author_id' } });
    doc.sources[0].tables.push({ table: { schema: 'public', name: 'scratch' }, configuration: { custom_name: '0' } });
    await restartOnStored(JSON.stringify(doc));
    await realQueryAnswers(fx.engine);
    const inconsistent = (await fx.engine.metadata({ type: 'get_inconsistent_metadata', args: {} })).body;
    expect(inconsistent.is_consistent).toBe(false);
    expect(inconsistent.inconsistent_objects.map((o: any) => o.type).sort()).toEqual(['object_relation', 'table']);
    expect((await fx.engine.metadata({ type: 'drop_inconsistent_metadata', args: {} })).status).toBe(200);
    await restoreBaseline(fx.engine);
    await realQueryAnswers(fx.engine);
  });
});

describe('a stored document the engine cannot load', () => {
  it('does not stop the boot: an empty metadata is in effect, with an error naming the remedy, until it is replaced', async () => {
    const doc = structuredClone(baseline) as any;
    doc.sources[0].tables = 5;
    await restartOnStored(JSON.stringify(doc));
    expect(logged('the stored metadata cannot be loaded', 'replace_metadata')).toBe(true);
    await restoreBaseline(fx.engine);
    await realQueryAnswers(fx.engine);
  });
});

describe('deep nesting', () => {
  it('a 5,000-level boolean expression is refused with the path, on every admin route, and nothing is stored', async () => {
    const before = await resourceVersion(fx.engine);
    const permission = await fx.engine.post('/v1/metadata', `{"type":"pg_create_select_permission","args":{"table":"article","role":"deep","permission":{"columns":["id"],"filter":${deepNot(5000)}}}}`);
    expect(permission.status).toBe(400);
    expect(permission.body.code).toBe('parse-failed');
    expect(permission.body.path).toBe('$.args.permission.filter' + '._not'.repeat(253));
    const where = await fx.engine.post('/v1/query', `{"type":"select","args":{"table":"author","columns":["id"],"where":${deepNot(5000)}}}`);
    expect(where.status).toBe(400);
    const insert = await fx.engine.post('/v2/query', `{"type":"insert","args":{"table":"scratch","objects":[{"note":${deepArray(5000)}}]}}`);
    expect(insert.status).toBe(400);
    expect(await resourceVersion(fx.engine)).toBe(before);
    await graphqlAnswers(fx.engine);
  });

  it('a body exactly at the limit is stored, served, and survives a restart; one level more is refused', async () => {
    // The body is 256 levels deep: envelope, args, permission, filter, 251 `_not`, `id`, `_eq`.
    const body = (n: number) => `{"type":"pg_create_select_permission","args":{"table":"author","role":"nested","permission":{"columns":["id"],"filter":${deepNot(n)}}}}`;
    expect((await fx.engine.post('/v1/metadata', body(252))).status).toBe(400);
    expect((await fx.engine.post('/v1/metadata', body(251))).status).toBe(200);
    await restart();
    const r = await fx.engine.post('/v1/graphql', { query: '{ author { id } }' }, { 'x-service-role': 'nested' });
    // An odd number of negations: the filter is `NOT id = 1`, and the only author is 1.
    expect(r.body).toEqual({ data: { author: [] } });
    await restoreBaseline(fx.engine);
  });

  it('GraphQL variables and documents have the same limit', async () => {
    const vars = await fx.engine.post('/v1/graphql', `{"query":"query($w: author_bool_exp) { author(where: $w) { id } }","variables":{"w":${deepNot(5000)}}}`);
    expect(vars.body.errors[0].extensions).toEqual({ path: '$.variables.w' + '._not'.repeat(254), code: 'parse-failed' });
    const selection = await fx.engine.post('/v1/graphql', { query: '{ author { ' + 'articles { author { '.repeat(200) + 'id' + ' } }'.repeat(200) + ' } }' });
    expect(selection.body.errors[0].message).toMatch(/nested deeper than 256 levels/);
    const list = await fx.engine.post('/v1/graphql', { query: '{ author(where: {id: {_in: ' + '['.repeat(5000) + '1' + ']'.repeat(5000) + '}}) { id } }' });
    expect(list.body.errors[0].extensions.code).toBe('validation-failed');
    await realQueryAnswers(fx.engine);
  });

  it('a stored document nested too deep (an older store row) loses that object at boot instead of crash-looping', async () => {
    const text = JSON.stringify(baseline).replace('"filter":{"rating":{"_gt":1}}', `"filter":${deepNot(5000)}`);
    await restartOnStored(text);
    expect(logged('nested too deep', '$.sources[0].tables[0].select_permissions[0]')).toBe(true);
    await realQueryAnswers(fx.engine);
    await restoreBaseline(fx.engine);
  });
});

describe('the fuzzer', () => {
  it('1,200 mutated requests: never a 5xx, a refused request changes nothing, GraphQL keeps answering, the engine restarts', async () => {
    const mutator = new Mutator(prng(20261123));
    const requests = corpus(baseline);
    const statuses = new Map<number, number>();
    let version = await resourceVersion(fx.engine);
    for (let i = 0; i < 1200; i++) {
      const [endpoint, request] = mutator.pick(requests);
      const body = mutator.body(request);
      const r = await fx.engine.post(endpoint, body);
      statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
      if (r.status >= 500) throw new Error(`request ${i} to ${endpoint} answered ${r.status}: ${JSON.stringify(r.body).slice(0, 500)}\nbody: ${body.slice(0, 500)}`);
      const now = await resourceVersion(fx.engine);
      if (r.status !== 200 && now !== version) throw new Error(`refused request ${i} (${r.status}) changed the metadata: ${body.slice(0, 500)}`);
      version = now;
      if (i % 100 === 99) {
        await graphqlAnswers(fx.engine);
        await restoreBaseline(fx.engine);
        await realQueryAnswers(fx.engine);
        version = await resourceVersion(fx.engine);
      }
    }
    // Both outcomes happen: the mutations are neither all harmless nor all refused.
    expect(statuses.get(200)).toBeGreaterThan(30);
    expect(statuses.get(400)).toBeGreaterThan(500);
    await graphqlAnswers(fx.engine);
    await restart();
    await restoreBaseline(fx.engine);
    await realQueryAnswers(fx.engine);
  }, 120_000);
});
