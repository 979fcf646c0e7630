/**
 * Synchronous actions (spec "Action") against a real HTTP handler: the body
 * the handler gets, headers (values, environment, forwarded client headers), transforms,
 * outputs (scalar, object, list) checked against their types, handler errors, permissions and
 * inherited roles, relationships from an output type to a table (one statement for every row),
 * and the metadata operations with their errors (nothing stored on bad input).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../support/db.js';
import { startEngine, type Engine } from '../support/engine.js';
import { ActionHandler } from '../support/action-handler.js';

const ADMIN = { 'X-Service-Admin-Secret': 'adm' };
let db: TestDatabase;
let engine: Engine;

const handler = new ActionHandler({
  '/hello': (b) => ({ body: { greeting: `hello ${b.input.name}`, count: b.input.times ?? 1 } }),
  '/echo': (b, h) => ({ body: { body: JSON.stringify(b), secret: h['x-secret'] ?? null, client: h['x-client'] ?? null, env: h['x-from-env'] ?? null } }),
  '/sum': (b) => ({ body: b.input.values.reduce((a: number, x: number) => a + x, 0) }),
  '/books': (b) => ({ body: Array.from({ length: b.input.n }, (_, i) => ({ title: `t${i}`, author_id: (i % 2) + 1 })) }),
  '/transformed': (b) => ({ body: { wrapped: { text: `got ${b.who}` } } }),
  '/refuse': () => ({ status: 400, body: { message: 'not allowed today', extensions: { code: 'closed', reason: 'sunday' } } }),
  '/broken': () => ({ status: 500, body: { message: 'boom' } }),
  '/slow': () => ({ delayMs: 2500, body: { greeting: 'late', count: 1 } }),
  '/text': () => ({ raw: 'this is not json' }),
  '/extra': () => ({ body: { greeting: 'x', count: 1, surprise: true } }),
  '/missing': () => ({ body: { count: 1 } }),
  '/wrong': () => ({ body: { greeting: 5, count: 1 } }),
  '/login': (b) => ({ body: { greeting: `hello ${b.input.name}`, count: 1 }, headers: { 'set-cookie': [`session=${b.input.name}; HttpOnly; Path=/`, 'seen=1'] } }),
  '/login-refused': () => ({ status: 400, body: { message: 'wrong password' }, headers: { 'set-cookie': 'session=; Max-Age=0' } }),
});

const admin = (type: string, args: unknown) => engine.metadata({ type, args }, ADMIN);
const as = (role: string, query: string, variables?: unknown, headers: Record<string, string> = {}) =>
  engine.post('/v1/graphql', { query, variables }, { ...ADMIN, 'X-Service-Role': role, 'X-Service-User-Id': '7', ...headers });
const gql = (query: string, variables?: unknown, headers?: Record<string, string>) => as('admin', query, variables, headers);
const ok = async (type: string, args: unknown) => {
  const r = await admin(type, args);
  expect(r.body, `${type}: ${JSON.stringify(r.body)}`).toEqual({ message: 'success' });
};

const CUSTOM_TYPES = {
  scalars: [{ name: 'Money' }],
  enums: [{ name: 'Mood', values: [{ value: 'HAPPY' }, { value: 'SAD' }] }],
  input_objects: [{ name: 'HelloInput', fields: [{ name: 'name', type: 'String!' }, { name: 'mood', type: 'Mood' }] }],
  objects: [
    { name: 'Greeting', fields: [{ name: 'greeting', type: 'String!' }, { name: 'count', type: 'Int!' }] },
    { name: 'Echo', fields: [{ name: 'body', type: 'String!' }, { name: 'secret', type: 'String' }, { name: 'client', type: 'String' }, { name: 'env', type: 'String' }] },
    { name: 'Wrapped', fields: [{ name: 'text', type: 'String!' }] },
    {
      name: 'Book',
      fields: [{ name: 'title', type: 'String!' }, { name: 'author_id', type: 'Int!' }],
      relationships: [{ name: 'author', type: 'object', remote_table: 'author', field_mapping: { author_id: 'id' } }, { name: 'fans', type: 'array', remote_table: { schema: 'public', name: 'fan' }, field_mapping: { author_id: 'author_id' } }],
    },
  ],
};

const action = (name: string, path: string, extra: Record<string, unknown> = {}, definition: Record<string, unknown> = {}) =>
  ok('create_action', { name, definition: { handler: handler.url(path), output_type: 'Greeting!', arguments: [{ name: 'name', type: 'String!' }, { name: 'times', type: 'Int' }], ...definition }, ...extra });

beforeAll(async () => {
  await handler.start();
  db = await freshDatabase();
  await db.sql(`
    CREATE TABLE author (id int PRIMARY KEY, name text NOT NULL);
    INSERT INTO author VALUES (1, 'ann'), (2, 'bob');
    CREATE TABLE fan (id serial PRIMARY KEY, author_id int NOT NULL, nick text NOT NULL);
    INSERT INTO fan (author_id, nick) VALUES (1, 'f1'), (1, 'f2'), (2, 'f3');
  `);
  engine = await startEngine({ SERVICE_GRAPHQL_DATABASE_URL: db.url, SERVICE_GRAPHQL_ADMIN_SECRET: 'adm', HANDLER_BASE: `http://127.0.0.1:${handler.port}`, SECRET_VALUE: 's3cret' });
  await ok('pg_track_table', { table: 'author' });
  await ok('pg_track_table', { table: 'fan' });
  await ok('set_custom_types', CUSTOM_TYPES);
});

afterAll(async () => {
  await engine?.stop();
  await db?.drop();
  await handler.stop();
});

describe('synchronous actions', () => {
  it('a mutation (the default type) calls the handler with the action, input, session variables and query', async () => {
    await action('hello', '/hello');
    const query = 'mutation M($n: String!) { hello(name: $n) { greeting count } }';
    const r = await as('admin', query, { n: 'world' });
    expect(r.body).toEqual({ data: { hello: { greeting: 'hello world', count: 1 } } });
    const call = handler.callsTo('/hello').at(-1)!;
    expect(call.body).toEqual({ action: { name: 'hello' }, input: { name: 'world' }, session_variables: { 'x-service-role': 'admin', 'x-service-user-id': '7' }, request_query: query });
    expect(call.headers['content-type']).toBe('application/json');
    // Aliases and __typename; a literal argument.
    expect((await gql('mutation { h: hello(name: "a", times: 3) { __typename c: count } }')).body).toEqual({ data: { h: { __typename: 'Greeting', c: 3 } } });
  });

  it('a query action, with a scalar output and a list argument, on the {{ENV}} handler', async () => {
    await ok('create_action', { name: 'sum', definition: { type: 'query', handler: '{{HANDLER_BASE}}/sum', output_type: 'Int!', arguments: [{ name: 'values', type: '[Int!]!' }] } });
    expect((await gql('query { sum(values: [1, 2, 3]) }')).body).toEqual({ data: { sum: 6 } });
    expect((await gql('query ($v: [Int!]!) { sum(values: $v) }', { v: [10, 20] })).body).toEqual({ data: { sum: 30 } });
    // A query action is not a mutation.
    expect((await gql('mutation { sum(values: [1]) }')).body.errors[0].message).toContain('sum');
  });

  it('sends configured headers (value and environment) and, when asked, the client headers', async () => {
    await ok('create_action', {
      name: 'echo',
      definition: { type: 'query', handler: handler.url('/echo'), output_type: 'Echo', headers: [{ name: 'X-Secret', value_from_env: 'SECRET_VALUE' }, { name: 'X-From-Env', value: 'plain' }] },
    });
    expect((await gql('{ echo { secret env client } }', undefined, { 'X-Client': 'c1' })).body).toEqual({ data: { echo: { secret: 's3cret', env: 'plain', client: null } } });
    await ok('update_action', {
      name: 'echo',
      definition: { type: 'query', handler: handler.url('/echo'), output_type: 'Echo', forward_client_headers: true, headers: [{ name: 'X-Secret', value_from_env: 'SECRET_VALUE' }] },
    });
    const r = await gql('{ echo { secret client } }', undefined, { 'X-Client': 'c1' });
    expect(r.body).toEqual({ data: { echo: { secret: 's3cret', client: 'c1' } } });
    // Never the engine's own headers (the admin secret among them).
    expect(handler.callsTo('/echo').at(-1)!.headers['x-service-admin-secret']).toBeUndefined();
  });

  it('applies the request and response transforms', async () => {
    await ok('create_action', {
      name: 'transformed',
      definition: {
        type: 'query',
        handler: handler.url('/transformed'),
        output_type: 'Wrapped!',
        arguments: [{ name: 'name', type: 'String!' }],
        request_transform: { version: 2, template_engine: 'Kriti', body: { action: 'transform', template: '{"who": {{$body.input.name}}, "role": {{$session_variables["x-service-role"]}}}' } },
        response_transform: { version: 2, template_engine: 'Kriti', body: { action: 'transform', template: '{{$body.wrapped}}' } },
      },
    });
    expect((await gql('{ transformed(name: "kim") { text } }')).body).toEqual({ data: { transformed: { text: 'got kim' } } });
    expect(handler.callsTo('/transformed').at(-1)!.body).toEqual({ who: 'kim', role: 'admin' });
  });

  it('turns handler failures into GraphQL errors', async () => {
    for (const [name, path] of [['refuse', '/refuse'], ['broken', '/broken'], ['text', '/text'], ['extra', '/extra'], ['missing', '/missing'], ['wrong', '/wrong']] as const) await action(name, path, {}, { type: 'query' });
    await action('slow', '/slow', {}, { type: 'query', timeout: 1 });
    const error = async (name: string) => (await gql(`{ ${name}(name: "x") { greeting } }`)).body;
    // A 4xx with {message, extensions}: that message and those extensions.
    expect(await error('refuse')).toEqual({ data: null, errors: [{ message: 'not allowed today', extensions: { code: 'closed', reason: 'sunday' } }] });
    expect((await error('broken')).errors[0]).toMatchObject({ message: 'the handler of action "broken" answered with status 500', extensions: { code: 'unexpected' } });
    expect((await error('text')).errors[0]).toMatchObject({ message: 'the handler of action "text" did not answer with JSON', extensions: { code: 'unexpected' } });
    expect((await error('slow')).errors[0]).toMatchObject({ message: 'the handler of action "slow" did not answer within 1 s', extensions: { code: 'unexpected' } });
    expect((await error('extra')).errors[0]).toMatchObject({ message: 'unexpected fields in webhook response: surprise', extensions: { code: 'unexpected' } });
    expect((await error('missing')).errors[0]).toMatchObject({ message: 'field "greeting" expected in webhook response, but not found', extensions: { code: 'unexpected' } });
    expect((await error('wrong')).errors[0]).toMatchObject({ message: 'expecting a value of type String for field "greeting", but found 5' });
  });

  it('joins an output type to a table in one statement for every row (object and array relationships)', async () => {
    await ok('create_action', { name: 'books', definition: { type: 'query', handler: handler.url('/books'), output_type: '[Book!]!', arguments: [{ name: 'n', type: 'Int!' }] } });
    const query = '{ books(n: 5) { title author { name } fans(order_by: {nick: asc}) { nick } } }';
    const r = await gql(query);
    const ann = { name: 'ann' };
    const bob = { name: 'bob' };
    const annFans = [{ nick: 'f1' }, { nick: 'f2' }];
    const bobFans = [{ nick: 'f3' }];
    expect(r.body).toEqual({
      data: {
        books: [
          { title: 't0', author: ann, fans: annFans },
          { title: 't1', author: bob, fans: bobFans },
          { title: 't2', author: ann, fans: annFans },
          { title: 't3', author: bob, fans: bobFans },
          { title: 't4', author: ann, fans: annFans },
        ],
      },
    });
    // The plan: one SQL statement per relationship, whatever the number of rows.
    const explained = await engine.post('/v1/graphql/explain', { query: { query } }, ADMIN);
    expect(explained.status).toBe(200);
    expect(explained.body.map((e: { field: string }) => e.field).sort()).toEqual(['author', 'fans']);
    // The join keys are not in the answer unless selected.
    expect((await gql('{ books(n: 1) { author_id author { name } } }')).body).toEqual({ data: { books: [{ author_id: 1, author: ann }] } });
  });
});

describe("handlers' cookies", () => {
  /** The raw HTTP answer: its Set-Cookie headers and body. */
  const raw = async (query: string) => {
    const res = await fetch(`${engine.url}/v1/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...ADMIN }, body: JSON.stringify({ query }) });
    return { cookies: res.headers.getSetCookie(), body: (await res.json()) as any };
  };

  it("passes a handler's Set-Cookie headers on to the client, for mutations and queries, and on failure", async () => {
    await action('login', '/login');
    await action('loginQuery', '/login', {}, { type: 'query' });
    await action('loginRefused', '/login-refused');
    const m = await raw('mutation { login(name: "ann") { greeting } }');
    expect(m.body).toEqual({ data: { login: { greeting: 'hello ann' } } });
    expect(m.cookies).toEqual(['session=ann; HttpOnly; Path=/', 'seen=1']);
    // The well-known engine forgets them for query actions (its issue 8407); a client logging in by a query expects them too.
    expect((await raw('{ loginQuery(name: "bob") { count } }')).cookies).toEqual(['session=bob; HttpOnly; Path=/', 'seen=1']);
    // A refusal that clears the session still clears it (RFC 6265 allows Set-Cookie on any status).
    const refused = await raw('mutation { loginRefused(name: "x") { count } }');
    expect(refused.body.errors[0].message).toBe('wrong password');
    expect(refused.cookies).toEqual(['session=; Max-Age=0']);
    // A batch gathers its requests' cookies; an action without cookies sends none.
    const res = await fetch(`${engine.url}/v1/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...ADMIN }, body: JSON.stringify([{ query: 'mutation { login(name: "a") { count } }' }, { query: 'mutation { login(name: "b") { count } }' }]) });
    expect(res.headers.getSetCookie().sort()).toEqual(['seen=1', 'seen=1', 'session=a; HttpOnly; Path=/', 'session=b; HttpOnly; Path=/']);
    expect((await raw('mutation { hello(name: "c") { count } }')).cookies).toEqual([]);
  });

  it('serves an action behind a RESTified endpoint (its query validated against the schema clients see), cookies included', async () => {
    await ok('create_query_collection', { name: 'logins', definition: { queries: [{ name: 'login', query: 'mutation { login(name: "rest") { greeting } }' }] } });
    await ok('create_rest_endpoint', { name: 'login', url: 'login', methods: ['POST'], definition: { query: { collection_name: 'logins', query_name: 'login' } } });
    const rest = await fetch(`${engine.url}/api/rest/login`, { method: 'POST', headers: ADMIN });
    expect(await rest.json()).toEqual({ login: { greeting: 'hello rest' } });
    expect(rest.headers.getSetCookie()).toEqual(['session=rest; HttpOnly; Path=/', 'seen=1']);
    await ok('drop_rest_endpoint', { name: 'login' });
    await ok('drop_query_collection', { collection: 'logins', cascade: true });
  });
});

describe('permissions', () => {
  it('a role sees an action with a permission; an inherited role when any parent does (rule 6)', async () => {
    await ok('pg_create_select_permission', { table: 'author', role: 'user', permission: { columns: ['name'], filter: { id: { _eq: 1 } } } });
    const q = 'mutation { hello(name: "u") { greeting } }';
    expect((await as('user', q)).body.errors[0].message).toMatch(/no mutations exist|hello/);
    await ok('create_action_permission', { action: 'hello', role: 'user' });
    expect((await as('user', q)).body).toEqual({ data: { hello: { greeting: 'hello u' } } });
    await ok('pg_create_select_permission', { table: 'fan', role: 'other', permission: { columns: ['nick'], filter: {} } });
    await ok('add_inherited_role', { role_name: 'both', role_set: ['user', 'other'] });
    expect((await as('both', q)).body).toEqual({ data: { hello: { greeting: 'hello u' } } });
    expect((await as('other', q)).body.errors).toBeDefined();
    // A relationship to a table the role may select (its rows filtered by the role's permission).
    await ok('create_action_permission', { action: 'books', role: 'user' });
    expect((await as('user', '{ books(n: 2) { title author { name } } }')).body).toEqual({ data: { books: [{ title: 't0', author: { name: 'ann' } }, { title: 't1', author: null }] } });
    // fan is not selectable by user: no such field.
    expect((await as('user', '{ books(n: 1) { fans { nick } } }')).body.errors[0].message).toContain('fans');
    await ok('drop_action_permission', { action: 'hello', role: 'user' });
    expect((await as('user', q)).body.errors).toBeDefined();
  });
});

describe('metadata', () => {
  it('refuses bad input with its path and stores nothing', async () => {
    const before = (await admin('export_metadata', {})).body;
    const bad = async (type: string, args: unknown) => (await admin(type, args)).body;
    expect(await bad('create_action', { name: 'x', definition: { handler: 'not a url', output_type: 'Greeting' } })).toMatchObject({ code: 'parse-failed', path: '$.args.definition.handler' });
    expect(await bad('create_action', { name: 'x', definition: { handler: handler.url('/hello'), output_type: 'Greeting!!' } })).toMatchObject({ code: 'parse-failed', path: '$.args.definition.output_type' });
    expect(await bad('create_action', { name: 'x', definition: { handler: handler.url('/hello'), output_type: 'Nope' } })).toMatchObject({ code: 'not-exists', path: '$.args' });
    expect(await bad('create_action', { name: 'x', definition: { handler: handler.url('/hello'), output_type: 'Greeting', arguments: [{ name: 'a', type: 'Greeting' }] } })).toMatchObject({
      code: 'not-exists',
      path: '$.args',
    });
    expect(await bad('create_action', { name: 'x', definition: { handler: '{{NOT_SET_ANYWHERE}}/x', output_type: 'Greeting' } })).toMatchObject({ code: 'invalid-configuration', error: expect.stringContaining('NOT_SET_ANYWHERE') });
    expect(await bad('create_action', { name: 'x', definition: { handler: handler.url('/hello'), output_type: 'Greeting', kind: 'asynchronous', type: 'query' } })).toMatchObject({ path: '$.args.definition.kind' });
    expect(await bad('create_action', { name: 'hello', definition: { handler: handler.url('/hello'), output_type: 'Greeting' } })).toMatchObject({ code: 'already-exists' });
    expect(await bad('set_custom_types', { objects: [{ name: 'G', fields: [{ name: 'a', type: 'Unknown' }] }] })).toMatchObject({ code: 'not-exists', path: '$.args' });
    // Removing a type an action uses.
    expect(await bad('set_custom_types', { objects: [] })).toMatchObject({ code: 'not-exists' });
    expect(await bad('set_custom_types', { ...CUSTOM_TYPES, objects: [{ ...CUSTOM_TYPES.objects[3], relationships: [{ name: 'author', type: 'object', remote_table: 'nope', field_mapping: { author_id: 'id' } }] }, ...CUSTOM_TYPES.objects.slice(0, 3)] })).toMatchObject({
      code: 'invalid-configuration',
      error: expect.stringContaining('not tracked'),
    });
    // Names the sources' schema has: a table's type, a table's root field.
    expect(await bad('set_custom_types', { ...CUSTOM_TYPES, enums: [...CUSTOM_TYPES.enums, { name: 'author', values: [{ value: 'A' }] }] })).toMatchObject({ code: 'invalid-configuration', error: expect.stringContaining('"author" clashes') });
    expect(await bad('create_action', { name: 'author', definition: { type: 'query', handler: handler.url('/hello'), output_type: 'Greeting' } })).toMatchObject({
      code: 'unexpected',
      error: expect.stringContaining("for field 'author' defined in [table author in source default, action author]"),
    });
    expect(await bad('create_action_permission', { action: 'nope', role: 'user' })).toMatchObject({ code: 'not-exists', path: '$.args' });
    expect(await bad('drop_action', { name: 'nope' })).toMatchObject({ code: 'not-exists', path: '$.args' });
    expect((await admin('export_metadata', {})).body).toEqual(before);
  });

  it("lets custom types name the database's scalars (its base types), and no other undeclared type", async () => {
    const before = (await admin('export_metadata', {})).body;
    const withField = (type: string) => ({ ...CUSTOM_TYPES, input_objects: [...CUSTOM_TYPES.input_objects, { name: 'Probe', fields: [{ name: 'v', type }] }] });
    // PostgreSQL base types the database has, named by their GraphQL scalars.
    for (const scalar of ['macaddr', 'interval', 'timestamptz', 'bigint', '_int4']) expect((await admin('set_custom_types', withField(scalar))).status).toBe(200);
    expect((await admin('set_custom_types', withField('int4'))).body).toMatchObject({ code: 'not-exists', path: '$.args' });
    // A document naming an undeclared type is inconsistent: replace_metadata refuses it, nothing stored.
    const replaced = await admin('replace_metadata', { ...before, custom_types: withField('Undeclared') });
    expect(replaced.status).toBe(400);
    expect(replaced.body).toMatchObject({ error: 'cannot continue due to inconsistent metadata', internal: [{ type: 'custom_types', reason: expect.stringContaining('"Undeclared"') }] });
    expect(await admin('set_custom_types', CUSTOM_TYPES)).toMatchObject({ status: 200 });
    expect((await admin('export_metadata', {})).body).toEqual(before);
  });

  it('exports actions and custom types, and replace_metadata takes them back (also on /v1/query)', async () => {
    const exported = (await admin('export_metadata', {})).body;
    // Stored with the table names qualified.
    const qualified = (rel: { remote_table: unknown }) => ({ ...rel, remote_table: typeof rel.remote_table === 'string' ? { schema: 'public', name: rel.remote_table } : rel.remote_table });
    expect(exported.custom_types).toEqual({ ...CUSTOM_TYPES, objects: CUSTOM_TYPES.objects.map((o) => ('relationships' in o ? { ...o, relationships: o.relationships!.map(qualified) } : o)) });
    expect(exported.actions.find((a: { name: string }) => a.name === 'books')).toEqual({
      name: 'books',
      definition: { kind: 'synchronous', type: 'query', handler: handler.url('/books'), output_type: '[Book!]!', arguments: [{ name: 'n', type: 'Int!' }] },
      permissions: [{ role: 'user' }],
    });
    await ok('clear_metadata', {});
    expect((await gql('{ sum(values: [1]) }')).body.errors).toBeDefined();
    await ok('replace_metadata', exported);
    expect((await admin('export_metadata', {})).body).toEqual(exported);
    expect((await gql('{ sum(values: [1, 1]) }')).body).toEqual({ data: { sum: 2 } });
    // The deprecated API.
    const q = await engine.query({ type: 'create_action', args: { name: 'legacy', definition: { type: 'query', handler: handler.url('/sum'), output_type: 'Int', arguments: [{ name: 'values', type: '[Int!]!' }] } } }, ADMIN);
    expect(q.body).toEqual({ message: 'success' });
    expect((await gql('{ legacy(values: [4]) }')).body).toEqual({ data: { legacy: 4 } });
    expect((await engine.query({ type: 'drop_action', args: { name: 'legacy' } }, ADMIN)).body).toEqual({ message: 'success' });
  });
});
