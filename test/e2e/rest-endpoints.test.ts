/**
 * RESTified endpoints: created and dropped on both administration APIs, with their errors
 * (conflicting URLs, unknown collections or queries, a mutation behind GET), and served under
 * /api/rest with URL parameters, query-string parameters (GET) and a JSON body, with the
 * authentication of /v1/graphql. Choices: docs/behaviour.md "RESTified endpoints".
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useEngine } from '../support/fixture.js';

const fx = useEngine({ SERVICE_GRAPHQL_ADMIN_SECRET: 'adm' });
const admin = { 'x-service-admin-secret': 'adm' };
const meta = (type: string, args: unknown) => fx.engine.metadata({ type, args }, admin);
const ok = async (type: string, args: unknown) => expect((await meta(type, args)).body).toEqual({ message: 'success' });

async function call(method: string, path: string, opts: { body?: unknown; headers?: Record<string, string> } = {}) {
  const res = await fetch(`${fx.engine.url}/api/rest/${path}`, {
    method,
    headers: { ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}), ...(opts.headers ?? admin) },
    ...(opts.body !== undefined ? { body: typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text), allow: res.headers.get('allow') };
}

const endpoint = (name: string, url: string, methods: string[], query_name: string, collection_name = 'rest') => ({
  name,
  url,
  methods,
  definition: { query: { collection_name, query_name } },
});

beforeAll(async () => {
  await fx.db.sql(`CREATE TABLE author (id serial PRIMARY KEY, name text NOT NULL, score int);
    INSERT INTO author (name, score) VALUES ('ann', 10), ('bob', 20)`);
  await ok('pg_track_table', { table: 'author' });
  await ok('pg_create_select_permission', { table: 'author', role: 'user', permission: { columns: ['id', 'name'], filter: {} } });
  await ok('create_query_collection', {
    name: 'rest',
    definition: {
      queries: [
        { name: 'by_id', query: 'query by_id($id: Int!) { author_by_pk(id: $id) { id name } }' },
        { name: 'by_name', query: 'query by_name($name: String!, $min: Int = 0) { author(where: {name: {_eq: $name}, score: {_gte: $min}}) { id score } }' },
        { name: 'add', query: 'mutation add($name: String!, $score: Int) { insert_author_one(object: {name: $name, score: $score}) { name score } }' },
        { name: 'all', query: 'query all { author(order_by: {id: asc}) { name } }' },
      ],
    },
  });
  await ok('create_query_collection', { name: 'bad', definition: { queries: [{ name: 'broken', query: '{ nothing_here }' }] } });
});

describe('create_rest_endpoint / drop_rest_endpoint', () => {
  it('creates endpoints, listed by the export', async () => {
    await ok('create_rest_endpoint', { ...endpoint('author', 'author/:id', ['GET'], 'by_id'), comment: 'one author' });
    await ok('create_rest_endpoint', endpoint('by_name', 'authors/by-name', ['GET', 'POST'], 'by_name'));
    await ok('create_rest_endpoint', endpoint('add', 'authors', ['POST'], 'add'));
    // The same URL with other methods is another endpoint.
    expect((await fx.engine.query({ type: 'create_rest_endpoint', args: endpoint('all', 'authors', ['GET'], 'all') }, admin)).body).toEqual({ message: 'success' });
    const doc = (await meta('export_metadata', {})).body;
    expect(doc.rest_endpoints).toEqual([
      { ...endpoint('author', 'author/:id', ['GET'], 'by_id'), comment: 'one author' },
      endpoint('by_name', 'authors/by-name', ['GET', 'POST'], 'by_name'),
      endpoint('add', 'authors', ['POST'], 'add'),
      endpoint('all', 'authors', ['GET'], 'all'),
    ]);
  });

  it('refuses conflicting URLs for a shared method', async () => {
    expect(await meta('create_rest_endpoint', endpoint('x', 'author/:name', ['GET'], 'all'))).toEqual({
      status: 400,
      body: { path: '$.args', error: 'the URL "author/:name" conflicts with "author/:id" of endpoint "author" for GET', code: 'conflict' },
    });
    expect((await meta('create_rest_endpoint', endpoint('x', 'author/new', ['GET', 'PUT'], 'all'))).body.code).toBe('conflict');
    // No method in common: no conflict.
    expect((await meta('create_rest_endpoint', endpoint('x', 'author/new', ['PUT'], 'all'))).status).toBe(200);
    await ok('drop_rest_endpoint', { name: 'x' });
  });

  it('refuses a name in use, an unknown collection or query, a mutation behind GET, bad methods and URLs', async () => {
    expect((await meta('create_rest_endpoint', endpoint('author', 'other', ['GET'], 'all'))).body).toEqual({
      path: '$.args',
      error: 'Endpoint with name: author already exists',
      code: 'already-exists',
    });
    expect((await meta('create_rest_endpoint', endpoint('y', 'y', ['GET'], 'all', 'ghost'))).body).toEqual({
      path: '$.args',
      error: 'query collection with name "ghost" does not exist',
      code: 'not-exists',
    });
    expect((await meta('create_rest_endpoint', endpoint('y', 'y', ['GET'], 'ghost'))).body).toEqual({
      path: '$.args',
      error: 'query with name "ghost" does not exist in collection "rest"',
      code: 'not-exists',
    });
    expect((await meta('create_rest_endpoint', endpoint('y', 'y', ['POST', 'GET'], 'add'))).body).toEqual({
      path: '$.args',
      error: 'the query "add" of collection "rest" is a mutation: it cannot be served on GET',
      code: 'validation-failed',
    });
    expect((await meta('create_rest_endpoint', endpoint('y', 'y', [], 'all'))).body).toEqual({ path: '$.args.methods', error: 'methods must be a non-empty list', code: 'parse-failed' });
    expect((await meta('create_rest_endpoint', endpoint('y', 'y', ['get'], 'all'))).body).toEqual({
      path: '$.args.methods[0]',
      error: 'unexpected method "get"; expected one of GET, POST, PUT, PATCH, DELETE',
      code: 'parse-failed',
    });
    expect((await meta('create_rest_endpoint', endpoint('y', '/y//z', ['GET'], 'all'))).body.code).toBe('parse-failed');
  });

  it('refuses an endpoint whose query does not validate against the schema', async () => {
    const r = await meta('create_rest_endpoint', endpoint('y', 'y', ['GET'], 'broken', 'bad'));
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 'invalid-configuration', error: 'Inconsistent object: query "broken" of query collection "bad" is not valid: field \'nothing_here\' not found in type: \'query_root\'' });
  });

  it('keeps a collection or query an endpoint serves', async () => {
    expect((await meta('drop_query_collection', { collection: 'rest', cascade: true })).body).toEqual({
      path: '$.args',
      error: 'cannot drop query collection "rest": it is used by the REST endpoint(s) "author", "by_name", "add", "all"',
      code: 'dependency-error',
    });
    expect((await meta('drop_query_from_collection', { collection_name: 'rest', query_name: 'by_id' })).body).toEqual({
      path: '$.args',
      error: 'cannot drop query "by_id" of query collection "rest": it is used by the REST endpoint(s) "author"',
      code: 'dependency-error',
    });
  });

  it('drops an endpoint, and names an unknown one', async () => {
    await ok('create_rest_endpoint', endpoint('tmp', 'tmp', ['GET'], 'all'));
    await ok('drop_rest_endpoint', { name: 'tmp' });
    expect(await meta('drop_rest_endpoint', { name: 'tmp' })).toEqual({ status: 400, body: { path: '$.args', error: 'endpoint with name: tmp does not exist', code: 'not-exists' } });
    expect((await call('GET', 'tmp')).status).toBe(404);
  });
});

describe('export round trip', () => {
  it('replace_metadata takes the endpoints back, and refuses conflicting ones', async () => {
    const doc = (await meta('export_metadata', {})).body;
    expect((await meta('replace_metadata', doc)).status).toBe(200);
    expect((await meta('export_metadata', {})).body).toEqual(doc);
    const clash = { ...doc, rest_endpoints: [...doc.rest_endpoints, endpoint('again', 'author/:other', ['GET'], 'all')] };
    expect((await meta('replace_metadata', clash)).body).toMatchObject({ path: '$.args', code: 'conflict' });
  });
});

describe('/api/rest', () => {
  it('maps URL parameters to variables, coerced to their types', async () => {
    expect(await call('GET', 'author/1')).toMatchObject({ status: 200, body: { author_by_pk: { id: 1, name: 'ann' } } });
    const bad = await call('GET', 'author/abc');
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('validation-failed');
  });

  it('maps query-string parameters on GET and the JSON body on POST', async () => {
    expect((await call('GET', 'authors/by-name?name=bob&min=5')).body).toEqual({ author: [{ id: 2, score: 20 }] });
    expect((await call('GET', 'authors/by-name?name=bob&min=25')).body).toEqual({ author: [] });
    expect((await call('POST', 'authors/by-name', { body: { name: 'ann' } })).body).toEqual({ author: [{ id: 1, score: 10 }] });
  });

  it('runs a mutation on POST and a query on GET of the same URL', async () => {
    expect(await call('POST', 'authors', { body: { name: 'cy', score: 5 } })).toMatchObject({ status: 200, body: { insert_author_one: { name: 'cy', score: 5 } } });
    expect((await call('GET', 'authors')).body).toEqual({ author: [{ name: 'ann' }, { name: 'bob' }, { name: 'cy' }] });
  });

  it('authenticates as /v1/graphql does: the role and its permissions', async () => {
    const none = await call('GET', 'author/1', { headers: {} });
    expect(none.status).toBe(401);
    expect((await call('GET', 'author/1', { headers: { ...admin, 'x-service-role': 'user' } })).body).toEqual({ author_by_pk: { id: 1, name: 'ann' } });
    const stranger = await call('GET', 'author/1', { headers: { ...admin, 'x-service-role': 'stranger' } });
    // A role without permissions on the table: its schema has nothing the query names.
    expect(stranger).toMatchObject({ status: 400, body: { code: 'validation-failed' } });
  });

  it('answers 404 for an unknown URL, 405 with Allow for another method, 400 for a body that is not JSON', async () => {
    expect(await call('GET', 'nothing/here')).toMatchObject({ status: 404, body: { code: 'not-found' } });
    expect(await call('GET', 'author/%E0%A4%A')).toMatchObject({ status: 404, body: { code: 'not-found' } });
    expect(await call('DELETE', 'authors')).toMatchObject({ status: 405, allow: 'POST, GET', body: { code: 'method-not-allowed' } });
    expect(await call('POST', 'authors', { body: '{"name":' })).toMatchObject({ status: 400, body: { code: 'invalid-json' } });
  });
});
