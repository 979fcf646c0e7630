/**
 * The allow-list enforced (SERVICE_GRAPHQL_ENABLE_ALLOWLIST): non-admin roles run only the
 * operations of allow-listed collections, global or scoped to their role, over HTTP and
 * WebSocket; documents compare parsed (whitespace, comments and `__typename` ignored).
 * Choices: docs/behaviour.md "Query collections and the allow-list".
 */
import { createClient, type Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { useEngine } from '../support/fixture.js';

const fx = useEngine({ SERVICE_GRAPHQL_ADMIN_SECRET: 'adm', SERVICE_GRAPHQL_ENABLE_ALLOWLIST: 'true', SERVICE_GRAPHQL_LOG_LEVEL: 'debug' });
const logged = (message: string, operationName?: string) =>
  fx.engine.logs.filter((l) => l.includes(`"message":"${message}"`) && (operationName === undefined || l.includes(`"operationName":"${operationName}"`))).length;
const admin = { 'x-service-admin-secret': 'adm' };
const as = (role: string) => ({ ...admin, 'x-service-role': role });
const meta = async (type: string, args: unknown) => {
  const r = await fx.engine.metadata({ type, args }, admin);
  expect(r).toMatchObject({ status: 200 });
  return r;
};
const run = async (query: string, headers: Record<string, string>, operationName?: string) => (await fx.engine.post('/v1/graphql', { query, operationName }, headers)).body;
const refused = { errors: [{ message: 'query is not allowed', extensions: { path: '$', code: 'validation-failed' } }] };

const AUTHORS = 'query authors { author(order_by: {id: asc}, limit: 1) { id name } }';
const rows = { data: { author: [{ id: 1, name: 'ann' }] } };

beforeAll(async () => {
  await fx.db.sql(`CREATE TABLE author (id serial PRIMARY KEY, name text); INSERT INTO author (name) VALUES ('ann'), ('bob')`);
  await meta('pg_track_table', { table: 'author' });
  for (const role of ['user', 'editor']) await meta('pg_create_select_permission', { table: 'author', role, permission: { columns: ['id', 'name'], filter: {} } });
  await meta('create_query_collection', { name: 'public', definition: { queries: [{ name: 'authors', query: AUTHORS }] } });
  await meta('create_query_collection', { name: 'editors', definition: { queries: [{ name: 'names', query: 'query names { author(order_by: {id: asc}) { name } }' }] } });
});

describe('over HTTP', () => {
  it('refuses introspection that is not on the allow-list', async () => {
    expect(await run('{ __schema { queryType { name } } }', as('user'))).toEqual(refused);
    expect(await run('{ __schema { queryType { name } } }', admin)).toEqual({ data: { __schema: { queryType: { name: 'query_root' } } } });
  });

  it('checks a document once: the verdict is kept with the plan, a refusal by the same key', async () => {
    const doc = 'query once { author { id } }';
    const before = logged('operation refused by the allow-list');
    for (let i = 0; i < 3; i++) expect(await run(doc, as('user'))).toEqual(refused);
    expect(logged('operation refused by the allow-list') - before).toBe(1);
  });

  it('refuses every operation of a non-admin role while nothing is allowed; admin runs anything', async () => {
    expect(await run(AUTHORS, as('user'))).toEqual(refused);
    // Refused before validation: a document naming nothing real gets the same answer.
    expect(await run('{ nothing }', as('user'))).toEqual(refused);
    expect(await run(AUTHORS, admin)).toEqual(rows);
    expect(await run('{ author_aggregate { aggregate { count } } }', admin)).toEqual({ data: { author_aggregate: { aggregate: { count: 2 } } } });
  });

  it('runs a globally allowed operation, written with other whitespace, comments and __typename fields', async () => {
    await meta('add_collection_to_allowlist', { collection: 'public', scope: { global: true } });
    // The change dropped the refusal kept for this document: it is checked again, and allowed.
    expect(await run(AUTHORS, as('user'))).toEqual(rows);
    // Compiled (and checked) once: the second request runs the cached plan.
    const compiled = logged('plan compiled', 'authors');
    for (let i = 0; i < 2; i++) expect(await run(AUTHORS, as('user'), 'authors')).toEqual(rows);
    expect(logged('plan compiled', 'authors') - compiled).toBe(1);
    const spaced = `# the authors
      query authors {
        author(order_by: {id: asc}, limit: 1) { __typename id   name }  # trailing
      }`;
    expect(await run(spaced, as('editor'))).toEqual({ data: { author: [{ __typename: 'author', id: 1, name: 'ann' }] } });
    // Arguments are compared by name, as a map.
    expect(await run('query authors { author(limit: 1, order_by: {id: asc}) { id name } }', as('user'))).toEqual(rows);
  });

  it('refuses another field order, another operation name, other arguments and other fields', async () => {
    expect(await run('query authors { author(order_by: {id: asc}, limit: 1) { name id } }', as('user'))).toEqual(refused);
    expect(await run('query others { author(order_by: {id: asc}, limit: 1) { id name } }', as('user'))).toEqual(refused);
    expect(await run('query authors { author(order_by: {id: asc}, limit: 2) { id name } }', as('user'))).toEqual(refused);
    expect(await run('query authors { author(order_by: {id: asc}) { id name } }', as('user'))).toEqual(refused);
    expect(await run('query authors { author(order_by: {id: asc}, limit: 1) { id } }', as('user'))).toEqual(refused);
  });

  it('runs a role-scoped collection for its roles only', async () => {
    const names = 'query names { author(order_by: {id: asc}) { name } }';
    await meta('add_collection_to_allowlist', { collection: 'editors', scope: { global: false, roles: ['editor'] } });
    expect(await run(names, as('editor'))).toEqual({ data: { author: [{ name: 'ann' }, { name: 'bob' }] } });
    expect(await run(names, as('user'))).toEqual(refused);
    await meta('update_scope_of_collection_in_allowlist', { collection: 'editors', scope: { global: true } });
    expect(await run(names, as('user'))).toEqual({ data: { author: [{ name: 'ann' }, { name: 'bob' }] } });
    await meta('drop_collection_from_allowlist', { collection: 'editors' });
    expect(await run(names, as('user'))).toEqual(refused);
    expect(await run(names, as('editor'))).toEqual(refused);
  });

  it('follows a query added to an allow-listed collection', async () => {
    const ids = 'query ids { author(order_by: {id: asc}) { id } }';
    expect(await run(ids, as('user'))).toEqual(refused);
    await meta('add_query_to_collection', { collection_name: 'public', query_name: 'ids', query: ids });
    expect(await run(ids, as('user'))).toEqual({ data: { author: [{ id: 1 }, { id: 2 }] } });
  });
});

describe('allow-list operations: errors', () => {
  const raw = (type: string, args: unknown) => fx.engine.metadata({ type, args }, admin);

  it('names an unknown collection, or one not on the allow-list', async () => {
    expect(await raw('add_collection_to_allowlist', { collection: 'ghost' })).toEqual({
      status: 400,
      body: { path: '$.args.collection', error: 'query collection with name "ghost" does not exist', code: 'not-exists' },
    });
    expect(await raw('drop_collection_from_allowlist', { collection: 'editors' })).toEqual({
      status: 400,
      body: { path: '$.args.collection', error: 'collection "editors" doesn\'t exist in the allowlist', code: 'not-found' },
    });
    expect(await raw('update_scope_of_collection_in_allowlist', { collection: 'editors', scope: { global: true } })).toEqual({
      status: 400,
      body: { path: '$.args.collection', error: 'collection "editors" doesn\'t exist in the allowlist', code: 'not-found' },
    });
  });

  it('reads the scope as the well-known engine does: a scope it cannot take fails at the scope object', async () => {
    const refused = (scope: unknown) => raw('add_collection_to_allowlist', { collection: 'editors', scope });
    expect(await refused({ global: false })).toEqual({ status: 400, body: { path: '$.args.scope', error: 'key "roles" not found', code: 'parse-failed' } });
    expect(await refused({ global: false, roles: [] })).toEqual({
      status: 400,
      body: { path: '$.args.scope.roles', error: 'parsing NonEmpty failed, unexpected empty list', code: 'parse-failed' },
    });
    expect(await refused({ global: false, roles: ['user', 'user'] })).toEqual({ status: 400, body: { path: '$.args.scope', error: 'duplicate roles are not allowed', code: 'parse-failed' } });
    expect(await refused({ global: true, roles: ['user'] })).toEqual({
      status: 400,
      body: { path: '$.args.scope', error: 'roles are not allowed when global is true', code: 'parse-failed' },
    });
  });

  it('keeps the scope of a collection already listed, and says so', async () => {
    expect(await raw('add_collection_to_allowlist', { collection: 'public', scope: { global: false, roles: ['x'] } })).toEqual({
      status: 200,
      body: { message: 'collection "public" already exists in the allowlist, scope ignored; to change scope, use update_scope_of_collection_in_allowlist' },
    });
    // Global, as it was added; exported with its scope, as the well-known engine does.
    expect((await raw('export_metadata', {})).body.allowlist).toEqual([{ collection: 'public', scope: { global: true } }]);
  });
});

describe('over WebSocket (graphql-ws)', () => {
  let client: Client;
  beforeAll(() => {
    client = createClient({ url: fx.engine.url.replace('http', 'ws') + '/v1/graphql', webSocketImpl: WebSocket, retryAttempts: 0, connectionParams: { headers: as('user') } });
  });
  afterAll(() => client.dispose());

  const last = (query: string) =>
    new Promise((resolve, reject) => {
      let value: unknown;
      client.subscribe({ query }, { next: (v) => (value = v), error: reject, complete: () => resolve(value) });
    });

  it('runs an allowed query and refuses another, and a subscription not on the list', async () => {
    expect(await last(AUTHORS)).toEqual(rows);
    await expect(last('query authors { author { name } }')).rejects.toEqual(refused.errors);
    await expect(last('subscription { author { name } }')).rejects.toEqual(refused.errors);
  });

  it('runs an allowed subscription', async () => {
    const sub = 'subscription first { author(order_by: {id: asc}, limit: 1) { name } }';
    await meta('add_query_to_collection', { collection_name: 'public', query_name: 'first', query: sub });
    const updates = client.iterate({ query: sub });
    expect((await updates.next()).value).toEqual({ data: { author: [{ name: 'ann' }] } });
    await updates.return!();
  });
});
