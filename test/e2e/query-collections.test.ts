/**
 * Query collections over both administration APIs: each operation's success and errors,
 * the export round trip, and the validation of allow-listed collections against the
 * schema (an invalid query is an inconsistent object). Choices: docs/behaviour.md
 * "Query collections and the allow-list".
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useEngine } from '../support/fixture.js';

const fx = useEngine();
const meta = (type: string, args: unknown) => fx.engine.metadata({ type, args });
const exported = async () => (await meta('export_metadata', {})).body;
const inconsistencies = async () => (await meta('get_inconsistent_metadata', {})).body;

beforeAll(async () => {
  await fx.db.sql(`CREATE TABLE author (id serial PRIMARY KEY, name text, bio text)`);
  expect((await meta('pg_track_table', { table: 'author' })).status).toBe(200);
  expect((await meta('pg_create_select_permission', { table: 'author', role: 'user', permission: { columns: ['id'], filter: {} } })).status).toBe(200);
});

describe('create_query_collection', () => {
  it('stores a collection, exported as given', async () => {
    const r = await meta('create_query_collection', {
      name: 'c1',
      comment: 'first',
      definition: { queries: [{ name: 'authors', query: 'query authors { author { id name } }' }] },
    });
    expect(r).toEqual({ status: 200, body: { message: 'success' } });
    expect((await exported()).query_collections).toEqual([
      { name: 'c1', comment: 'first', definition: { queries: [{ name: 'authors', query: 'query authors { author { id name } }' }] } },
    ]);
  });

  it('refuses a name in use', async () => {
    const r = await meta('create_query_collection', { name: 'c1', definition: { queries: [] } });
    expect(r).toEqual({ status: 400, body: { path: '$.args.name', error: 'query collection with name "c1" already exists', code: 'already-exists' } });
  });

  it('refuses duplicate query names and text that is not GraphQL', async () => {
    const dup = await meta('create_query_collection', {
      name: 'c2',
      definition: { queries: [{ name: 'q', query: '{ author { id } }' }, { name: 'q', query: '{ author { name } }' }] },
    });
    expect(dup).toEqual({ status: 400, body: { path: '$.args', error: 'found duplicate query names "q"', code: 'not-supported' } });
    const bad = await meta('create_query_collection', { name: 'c2', definition: { queries: [{ name: 'q', query: '{ author { id }' }] } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ path: '$.args.definition.queries[0].query', code: 'parse-failed' });
    expect(bad.body.error).toMatch(/^not a valid graphql query: Syntax Error/);
  });

  it('keeps a query that does not validate while no allow-list uses its collection (only parsed)', async () => {
    expect((await meta('create_query_collection', { name: 'loose', definition: { queries: [{ name: 'q', query: '{ nothing_here }' }] } })).status).toBe(200);
    expect((await inconsistencies()).is_consistent).toBe(true);
  });
});

describe('add_query_to_collection / drop_query_from_collection', () => {
  it('adds a query and refuses its name twice', async () => {
    expect((await meta('add_query_to_collection', { collection_name: 'c1', query_name: 'names', query: '{ author { name } }' })).status).toBe(200);
    const again = await meta('add_query_to_collection', { collection_name: 'c1', query_name: 'names', query: '{ author { id } }' });
    expect(again).toEqual({ status: 400, body: { path: '$.args', error: 'query with name "names" already exists in collection "c1"', code: 'already-exists' } });
    expect((await exported()).query_collections[0].definition.queries.map((q: any) => q.name)).toEqual(['authors', 'names']);
  });

  it('names an unknown collection or query', async () => {
    const noColl = await meta('add_query_to_collection', { collection_name: 'nope', query_name: 'x', query: '{ author { id } }' });
    expect(noColl).toEqual({ status: 400, body: { path: '$.args.collection_name', error: 'query collection with name "nope" does not exist', code: 'not-exists' } });
    const noQuery = await meta('drop_query_from_collection', { collection_name: 'c1', query_name: 'x' });
    expect(noQuery).toEqual({ status: 400, body: { path: '$.args', error: 'query with name "x" not found in collection "c1"', code: 'not-found' } });
  });

  it('drops a query', async () => {
    expect((await meta('drop_query_from_collection', { collection_name: 'c1', query_name: 'names' })).status).toBe(200);
    expect((await exported()).query_collections[0].definition.queries.map((q: any) => q.name)).toEqual(['authors']);
  });
});

describe('rename_query_collection / drop_query_collection', () => {
  it('renames, refusing a name in use or an unknown collection; the allow-list follows', async () => {
    expect((await meta('add_collection_to_allowlist', { collection: 'c1' })).status).toBe(200);
    const taken = await meta('rename_query_collection', { name: 'c1', new_name: 'loose' });
    expect(taken).toEqual({ status: 400, body: { path: '$.args', error: 'query collection with name "loose" already exists', code: 'already-exists' } });
    const unknown = await meta('rename_query_collection', { name: 'nope', new_name: 'x' });
    expect(unknown).toEqual({ status: 400, body: { path: '$.args.name', error: 'query collection with name "nope" does not exist', code: 'not-exists' } });
    expect((await meta('rename_query_collection', { name: 'c1', new_name: 'main' })).status).toBe(200);
    const doc = await exported();
    expect(doc.query_collections.map((c: any) => c.name)).toEqual(['main', 'loose']);
    // A global entry carries its scope, as the well-known engine exports it.
    expect(doc.allowlist).toEqual([{ collection: 'main', scope: { global: true } }]);
  });

  it('refuses to drop a collection on the allow-list without cascade', async () => {
    const r = await meta('drop_query_collection', { collection: 'main', cascade: false });
    expect(r).toEqual({
      status: 400,
      body: {
        path: '$.args',
        error: 'query collection with name "main" is present in the allowlist; cannot proceed to drop. please use cascade to confirm you wish to drop it from the allowlist as well',
        code: 'dependency-error',
      },
    });
    expect((await meta('drop_query_collection', { collection: 'main' })).body).toEqual({ path: '$.args', error: 'key "cascade" not found', code: 'parse-failed' });
  });

  it('drops it with cascade, and its allow-list entry with it', async () => {
    expect((await meta('drop_query_collection', { collection: 'main', cascade: true })).status).toBe(200);
    const doc = await exported();
    expect(doc.query_collections.map((c: any) => c.name)).toEqual(['loose']);
    expect(doc.allowlist).toBeUndefined();
    const again = await meta('drop_query_collection', { collection: 'main', cascade: true });
    expect(again).toEqual({ status: 400, body: { path: '$.args.collection', error: 'query collection with name "main" does not exist', code: 'not-exists' } });
  });

  it('works on /v1/query too', async () => {
    const q = (type: string, args: unknown) => fx.engine.query({ type, args });
    expect((await q('create_query_collection', { name: 'old', definition: { queries: [{ name: 'a', query: '{ author { id } }' }] } })).status).toBe(200);
    expect((await q('add_query_to_collection', { collection_name: 'old', query_name: 'b', query: '{ author { bio } }' })).status).toBe(200);
    expect((await q('drop_query_from_collection', { collection_name: 'old', query_name: 'a' })).status).toBe(200);
    expect((await q('rename_query_collection', { name: 'old', new_name: 'older' })).status).toBe(200);
    expect((await q('add_collection_to_allowlist', { collection: 'older' })).status).toBe(200);
    expect((await q('drop_collection_from_allowlist', { collection: 'older' })).status).toBe(200);
    expect((await q('drop_query_collection', { collection: 'older', cascade: false })).status).toBe(200);
  });
});

describe('validation of allow-listed collections', () => {
  it('refuses to put a collection with an invalid query on the allow-list, with the reason', async () => {
    const r = await meta('add_collection_to_allowlist', { collection: 'loose' });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({
      path: '$.args',
      code: 'invalid-configuration',
      error: 'Inconsistent object: query "q" of query collection "loose" is not valid: field \'nothing_here\' not found in type: \'query_root\'',
    });
    expect(r.body.internal[0]).toMatchObject({ type: 'query_collection', name: 'query q in query collection loose', definition: { collection: 'loose', query_name: 'q' } });
    expect((await exported()).allowlist).toBeUndefined();
  });

  it('refuses an invalid query added to an allow-listed collection', async () => {
    expect((await meta('create_query_collection', { name: 'listed', definition: { queries: [{ name: 'ok', query: '{ author { id bio } }' }] } })).status).toBe(200);
    expect((await meta('add_collection_to_allowlist', { collection: 'listed' })).status).toBe(200);
    const r = await meta('add_query_to_collection', { collection_name: 'listed', query_name: 'bad', query: '{ author { nope } }' });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('invalid-configuration');
    expect(r.body.error).toContain('query "bad" of query collection "listed" is not valid');
  });

  it('restricts nothing while the allow-list is not enabled', async () => {
    const r = await fx.engine.post('/v1/graphql', { query: 'query other { author { id } }' }, { 'x-service-role': 'user' });
    expect(r).toEqual({ status: 200, body: { data: { author: [] } } });
  });

  it('refuses an untrack that would break an allow-listed query', async () => {
    const r = await meta('pg_untrack_table', { table: 'author' });
    expect(r).toEqual({
      status: 400,
      body: { path: '$.args', error: 'cannot drop due to the following dependent objects : query ok in query collection listed', code: 'dependency-error' },
    });
  });

  it('lists a query that a change in the database broke as inconsistent', async () => {
    await fx.db.sql('ALTER TABLE author DROP COLUMN bio');
    const reload = await meta('reload_metadata', {});
    expect(reload.body.is_consistent).toBe(false);
    const list = await inconsistencies();
    expect(list.is_consistent).toBe(false);
    expect(list.inconsistent_objects).toEqual([
      {
        type: 'query_collection',
        name: 'query ok in query collection listed',
        definition: { collection: 'listed', query_name: 'ok', query: '{ author { id bio } }' },
        reason: 'Inconsistent object: query "ok" of query collection "listed" is not valid: field \'bio\' not found in type: \'author\'',
      },
    ]);
    // drop_inconsistent_metadata drops the query from its collection.
    expect((await meta('drop_inconsistent_metadata', {})).status).toBe(200);
    expect((await inconsistencies()).is_consistent).toBe(true);
    expect((await exported()).query_collections.find((c: any) => c.name === 'listed').definition).toEqual({ queries: [] });
  });
});

describe('export round trip', () => {
  it('replace_metadata takes back what export_metadata gave, and clear_metadata removes it', async () => {
    expect((await meta('add_query_to_collection', { collection_name: 'listed', query_name: 'ids', query: '{ author { id } }' })).status).toBe(200);
    expect((await meta('update_scope_of_collection_in_allowlist', { collection: 'listed', scope: { global: false, roles: ['user'] } })).status).toBe(200);
    const before = await exported();
    expect(before.allowlist).toEqual([{ collection: 'listed', scope: { global: false, roles: ['user'] } }]);
    expect((await meta('clear_metadata', {})).status).toBe(200);
    const cleared = await exported();
    expect(cleared.query_collections).toBeUndefined();
    expect(cleared.allowlist).toBeUndefined();
    expect((await meta('replace_metadata', before)).status).toBe(200);
    expect(await exported()).toEqual(before);
  });

  it('replace_metadata refuses an allow-list naming an unknown collection', async () => {
    const doc = await exported();
    const r = await meta('replace_metadata', { ...doc, allowlist: [{ collection: 'ghost' }] });
    expect(r).toEqual({ status: 400, body: { path: '$.args', error: 'query collection with name "ghost" does not exist', code: 'not-exists' } });
  });
});
