/**
 * Remote schemas (spec "Remote schema", "Remote schemas") against real
 * GraphQL servers started here (graphql-js over node:http): added, introspected and queried
 * through the engine, mixed with a table in one request, customized (namespace, type and
 * field names, `__typename`), with configured, forwarded and session headers; updated,
 * reloaded, removed; a name clash or an unreachable server leaves it inconsistent (nothing
 * stored when a command causes it), and an unreachable one comes back by itself.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../support/db.js';
import { startEngine, type Engine } from '../support/engine.js';
import { freePort, RemoteGraphQL } from '../support/remote-graphql.js';

const ADMIN = { 'X-Service-Admin-Secret': 'adm' };
let db: TestDatabase;
let engine: Engine;

const USERS_SDL = `
  type User { id: Int!  name: String!  pets: [Pet!]! }
  interface Pet { name: String! }
  type Dog implements Pet { name: String!  barks: Boolean! }
  type Cat implements Pet { name: String!  lives: Int! }
  enum Order { ASC DESC }
  input UserFilter { minId: Int  nameLike: String }
  type Query {
    user(id: Int!): User
    users(filter: UserFilter, order: Order = ASC): [User!]!
    whoami: String
    header(name: String!): String
    boom: String
  }
  type Mutation { rename(id: Int!, name: String!): User }
`;
const people = [
  { id: 1, name: 'ada', pets: [{ __typename: 'Dog', name: 'rex', barks: true }] },
  { id: 2, name: 'bob', pets: [{ __typename: 'Cat', name: 'tom', lives: 9 }] },
];
const usersRoot = {
  user: ({ id }: { id: number }) => people.find((p) => p.id === id) ?? null,
  users: ({ filter, order }: { filter?: { minId?: number; nameLike?: string }; order: string }) => {
    const list = people.filter((p) => (filter?.minId === undefined || p.id >= filter.minId) && (filter?.nameLike === undefined || p.name.includes(filter.nameLike)));
    return order === 'DESC' ? [...list].reverse() : list;
  },
  whoami: (_: unknown, headers: Record<string, string>) => headers['x-service-user-id'] ?? null,
  header: ({ name }: { name: string }, headers: Record<string, string>) => headers[name.toLowerCase()] ?? null,
  boom: () => {
    throw new Error('kaboom');
  },
  rename: ({ id, name }: { id: number; name: string }) => {
    const p = people.find((x) => x.id === id);
    if (p) p.name = name;
    return p ?? null;
  },
};
const users = new RemoteGraphQL(USERS_SDL, usersRoot);
const weather = new RemoteGraphQL(`type Forecast { city: String! celsius: Int! } type Query { forecast(city: String!): Forecast }`, {
  forecast: ({ city }: { city: string }) => ({ city, celsius: city.length }),
});

const admin = (type: string, args: unknown) => engine.metadata({ type, args }, ADMIN);
const gql = (query: string, variables?: unknown, headers: Record<string, string> = ADMIN) => engine.post('/v1/graphql', { query, variables }, headers);
const exported = async () => (await admin('export_metadata', {})).body;
const inconsistent = async () => (await admin('get_inconsistent_metadata', {})).body;

async function eventually(check: () => Promise<boolean>, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  await Promise.all([users.start(), weather.start()]);
  db = await freshDatabase();
  await db.sql(`CREATE TABLE note (id serial PRIMARY KEY, body text); INSERT INTO note (body) VALUES ('a');`);
  engine = await startEngine({
    SERVICE_GRAPHQL_DATABASE_URL: db.url,
    SERVICE_GRAPHQL_ADMIN_SECRET: 'adm',
    SERVICE_GRAPHQL_REMOTE_SCHEMA_RETRY_INTERVAL: '300',
    REMOTE_TOKEN: 'from-env',
  });
  expect((await admin('pg_track_table', { table: 'note' })).status).toBe(200);
});

afterAll(async () => {
  await engine?.stop();
  await Promise.all([users.stop(), weather.stop()]);
  await db?.drop();
});

describe('remote schemas', () => {
  it('adds a remote schema, stores and exports it, and answers its fields through the engine', async () => {
    const res = await admin('add_remote_schema', {
      name: 'users',
      definition: { url: users.url, headers: [{ name: 'X-Token', value: 'secret' }, { name: 'X-Env', value_from_env: 'REMOTE_TOKEN' }], forward_client_headers: true, timeout_seconds: 5 },
      comment: 'people',
    });
    expect(res.body).toEqual({ message: 'success' });
    expect((await exported()).remote_schemas).toEqual([
      { name: 'users', definition: { url: users.url, headers: [{ name: 'X-Token', value: 'secret' }, { name: 'X-Env', value_from_env: 'REMOTE_TOKEN' }], forward_client_headers: true, timeout_seconds: 5 }, comment: 'people' },
    ]);
    const q = await gql('{ user(id: 1) { id name } }');
    expect(q.body).toEqual({ data: { user: { id: 1, name: 'ada' } } });
    // The remote's fields are in the schema.
    const intro = await gql('{ __type(name: "User") { fields { name } } }');
    expect(intro.body.data.__type.fields.map((f: { name: string }) => f.name)).toEqual(['id', 'name', 'pets']);
  });

  it('answers a request touching a table and a remote schema in one response, with variables, aliases, fragments and __typename', async () => {
    users.calls.length = 0;
    const q = await gql(
      `query ($f: UserFilter, $o: Order) {
        note { id body }
        first: users(filter: $f, order: $o) { ...U pets { __typename name ... on Dog { barks } ... on Cat { lives } } }
        one: user(id: 2) { kind: __typename name }
      }
      fragment U on User { id who: name }`,
      { f: { minId: 1 }, o: 'DESC' },
    );
    expect(q.body).toEqual({
      data: {
        note: [{ id: 1, body: 'a' }],
        first: [
          { id: 2, who: 'bob', pets: [{ __typename: 'Cat', name: 'tom', lives: 9 }] },
          { id: 1, who: 'ada', pets: [{ __typename: 'Dog', name: 'rex', barks: true }] },
        ],
        one: { kind: 'User', name: 'bob' },
      },
    });
    // Variables were passed on, not written into the query.
    const call = users.queries().find((c) => c.query.includes('users'))!;
    expect(call.variables).toEqual({ f: { minId: 1 }, o: 'DESC' });
  });

  it('sends the configured headers, the client headers (forward_client_headers) and the session as x-service-* headers', async () => {
    users.calls.length = 0;
    const q = await gql('{ whoami header(name: "x-custom") }', undefined, { ...ADMIN, 'X-Service-Role': 'admin', 'X-Service-User-Id': '42', 'X-Custom': 'hello' });
    expect(q.body).toEqual({ data: { whoami: '42', header: 'hello' } });
    const h = users.queries()[0]!.headers;
    expect(h['x-token']).toBe('secret');
    expect(h['x-env']).toBe('from-env');
    expect(h['x-service-role']).toBe('admin');
    // The admin secret is never forwarded.
    expect(h['x-service-admin-secret']).toBeUndefined();
  });

  it('passes the remote errors on beside the data, and runs remote mutations', async () => {
    const q = await gql('{ boom note { id } }');
    expect(q.body).toEqual({ data: { boom: null, note: [{ id: 1 }] }, errors: [{ message: 'kaboom', path: ['boom'] }] });
    const m = await gql('mutation { rename(id: 1, name: "ada") { name } }');
    expect(m.body).toEqual({ data: { rename: { name: 'ada' } } });
  });

  it("passes the remote's Set-Cookie headers on over HTTP, on /v1/graphql and on a RESTified endpoint (with the client's headers forwarded there too)", async () => {
    users.responseHeaders = { 'set-cookie': ['sid=abc; HttpOnly; Path=/', 'theme=dark'] };
    try {
      const res = await fetch(`${engine.url}/v1/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...ADMIN }, body: JSON.stringify({ query: '{ user(id: 2) { name } note { id } }' }) });
      expect(await res.json()).toEqual({ data: { user: { name: 'bob' }, note: [{ id: 1 }] } });
      expect(res.headers.getSetCookie()).toEqual(['sid=abc; HttpOnly; Path=/', 'theme=dark']);
      expect((await admin('create_query_collection', { name: 'remote_calls', definition: { queries: [{ name: 'custom', query: 'query { header(name: "x-custom") }' }] } })).status).toBe(200);
      const created = await admin('create_rest_endpoint', { name: 'custom', url: 'custom', methods: ['GET'], definition: { query: { collection_name: 'remote_calls', query_name: 'custom' } } });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      const rest = await fetch(`${engine.url}/api/rest/custom`, { headers: { ...ADMIN, 'X-Custom': 'over rest' } });
      expect(await rest.json()).toEqual({ header: 'over rest' });
      expect(rest.headers.getSetCookie()).toEqual(['sid=abc; HttpOnly; Path=/', 'theme=dark']);
    } finally {
      users.responseHeaders = {};
      await admin('drop_rest_endpoint', { name: 'custom' });
      await admin('drop_query_collection', { collection: 'remote_calls', cascade: true });
    }
    // A table alone calls no remote: no cookie.
    expect((await fetch(`${engine.url}/v1/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...ADMIN }, body: JSON.stringify({ query: '{ note { id } }' }) })).headers.getSetCookie()).toEqual([]);
  });

  it('without remote schema permissions enabled, every role sees every remote schema and permissions are refused', async () => {
    expect((await gql('{ user(id: 2) { name } }', undefined, { ...ADMIN, 'X-Service-Role': 'someone' })).body).toEqual({ data: { user: { name: 'bob' } } });
    const res = await admin('add_remote_schema_permissions', { remote_schema: 'users', role: 'someone', definition: { schema: 'type Query { whoami: String }' } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'constraint-violation', path: '$.args' });
    expect((await admin('drop_remote_schema_permissions', { remote_schema: 'users', role: 'someone' })).status).toBe(400);
  });

  it('refuses a second remote schema whose root fields clash, and stores nothing', async () => {
    const clash = new RemoteGraphQL('type Query { user(id: Int!): String }', { user: () => 'x' });
    await clash.start();
    try {
      const before = await exported();
      const res = await admin('add_remote_schema', { name: 'clash', definition: { url: clash.url } });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('invalid-configuration');
      expect(res.body.error).toBe("Inconsistent object: Duplicate remote field 'user'");
      expect(await exported()).toEqual(before);
    } finally {
      await clash.stop();
    }
  });

  it('refuses a remote schema whose root field clashes with a table field', async () => {
    const clash = new RemoteGraphQL('type Query { note: String }', { note: () => 'x' });
    await clash.start();
    try {
      const res = await admin('add_remote_schema', { name: 'clash', definition: { url: clash.url } });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe("Inconsistent object: Field cannot be overwritten by remote field 'note'");
    } finally {
      await clash.stop();
    }
  });

  it("refuses an action or a custom type taking a remote schema's root field or type name, and a remote schema taking an action's, storing nothing", async () => {
    const before = await exported();
    const action = (name: string, type: 'query' | 'mutation') => admin('create_action', { name, definition: { type, handler: 'http://127.0.0.1:9/none', output_type: 'String' } });
    const refused = await action('whoami', 'query');
    expect(refused.status).toBe(400);
    expect(refused.body.error).toContain('the query root field "whoami" already exists');
    expect((await action('rename', 'mutation')).body.error).toContain('the mutation root field "rename" already exists');
    const types = await admin('set_custom_types', { objects: [{ name: 'User', fields: [{ name: 'id', type: 'Int' }] }] });
    expect(types.status).toBe(400);
    expect(types.body.error).toContain('the custom type "User" clashes');
    expect(await exported()).toEqual(before);
    // The other way round: the action is there first.
    expect((await action('forecast', 'query')).status).toBe(200);
    const added = await admin('add_remote_schema', { name: 'weather', definition: { url: weather.url } });
    expect(added.status).toBe(400);
    expect(added.body.error).toContain('"forecast"');
    expect((await exported()).remote_schemas).toEqual(before.remote_schemas);
    expect((await admin('drop_action', { name: 'forecast' })).status).toBe(200);
    // The schema still serves the remote.
    expect((await gql('{ whoami }', undefined, { ...ADMIN, 'X-Service-User-Id': '5' })).body).toEqual({ data: { whoami: '5' } });
  });

  it('rejects bad definitions with the JSON path, storing nothing', async () => {
    const before = await exported();
    const cases: [unknown, string][] = [
      [{ name: 'x', definition: { url: 'not a url' } }, '$.args'],
      [{ name: 'x', definition: {} }, '$.args.definition'],
      [{ name: 'x', definition: { url: 'http://a', url_from_env: 'B' } }, '$.args.definition'],
      [{ name: 'x', definition: { url: 'http://a', headers: [{ name: 'a' }] } }, '$.args.definition.headers[0]'],
      [{ name: 'x', definition: { url: 'http://a', timeout_seconds: 0 } }, '$.args.definition.timeout_seconds'],
      [{ name: 'x', definition: { url: 'http://a', customization: { type_names: { prefix: '1x' } } } }, '$.args.definition.customization.type_names.prefix'],
      [{ name: 'x', definition: { url: 'http://a', bogus: 1 } }, '$.args.definition'],
      [{ name: 'users', definition: { url: users.url } }, '$.args'],
    ];
    for (const [args, path] of cases) {
      const res = await admin('add_remote_schema', args);
      expect(res.status, JSON.stringify(args)).toBe(400);
      expect(res.body.path, JSON.stringify(args)).toBe(path);
    }
    // An unreachable server: refused with the reason.
    const res = await admin('add_remote_schema', { name: 'down', definition: { url: `http://127.0.0.1:${await freePort()}/graphql`, timeout_seconds: 2 } });
    expect(res.status).toBe(400);
    expect(res.body.error).toContain('could not be introspected');
    expect(await exported()).toEqual(before);
    expect((await admin('remove_remote_schema', { name: 'nope' })).body).toMatchObject({ path: '$.args', code: 'not-exists' });
  });

  it('customizes a remote schema: root field namespace, type names and field names, __typename in customized names', async () => {
    expect(
      (
        await admin('add_remote_schema', {
          name: 'weather',
          definition: {
            url: weather.url,
            customization: {
              root_fields_namespace: 'wx',
              type_names: { prefix: 'wx_', mapping: { Forecast: 'WeatherReport' } },
              field_names: [
                { parent_type: 'Forecast', mapping: { celsius: 'temperature' } },
                { parent_type: 'Query', prefix: 'get_' },
              ],
            },
          },
        })
      ).body,
    ).toEqual({ message: 'success' });
    weather.calls.length = 0;
    const q = await gql('query ($c: String!) { wx { __typename get_forecast(city: $c) { __typename city t: temperature temperature } } note { id } }', { c: 'Oslo' });
    expect(q.body).toEqual({ data: { wx: { __typename: 'wx_query', get_forecast: { __typename: 'WeatherReport', city: 'Oslo', t: 4, temperature: 4 } }, note: [{ id: 1 }] } });
    // The remote got its own names.
    const sent = weather.queries()[0]!;
    expect(sent.query).toContain('forecast(city: $c)');
    expect(sent.query).toContain('temperature: celsius');
    expect(sent.query).toContain('$c: String!');
    const type = await gql('{ __type(name: "WeatherReport") { fields { name } } }');
    expect(type.body.data.__type.fields.map((f: { name: string }) => f.name)).toEqual(['city', 'temperature']);
    // A remote that cannot be called fails the request, at the field (in its namespace).
    await weather.stop();
    try {
      expect((await gql('{ wx { f: get_forecast(city: "Oslo") { city } } }')).body).toEqual({
        data: null,
        errors: [{ message: `error calling remote schema "weather": connect ECONNREFUSED 127.0.0.1:${weather.port}`, extensions: { path: '$.selectionSet.wx.selectionSet.f', code: 'remote-schema-error' } }],
      });
    } finally {
      await weather.start();
    }
  });

  it('updates a remote schema (new customization), reloads and removes it', async () => {
    expect((await admin('update_remote_schema', { name: 'weather', definition: { url: weather.url, customization: { root_fields_namespace: 'meteo' } } })).body).toEqual({ message: 'success' });
    expect((await gql('{ meteo { forecast(city: "Rome") { celsius } } }')).body).toEqual({ data: { meteo: { forecast: { celsius: 4 } } } });
    expect((await gql('{ wx { get_forecast(city: "Rome") { temperature } } }')).body.errors).toBeDefined();
    weather.calls.length = 0;
    expect((await admin('reload_remote_schema', { name: 'weather' })).body).toEqual({ message: 'success' });
    expect(weather.calls.length).toBe(1);
    expect((await admin('reload_metadata', { reload_remote_schemas: ['weather'] })).body).toEqual({ is_consistent: true, message: 'success' });
    expect((await admin('reload_metadata', { reload_remote_schemas: ['nope'] })).body).toMatchObject({ path: '$.args', code: 'not-exists' });
    expect((await admin('remove_remote_schema', { name: 'weather' })).body).toEqual({ message: 'success' });
    expect((await gql('{ meteo { forecast(city: "Rome") { celsius } } }')).body.errors[0].message).toContain('meteo');
    expect((await exported()).remote_schemas.map((r: { name: string }) => r.name)).toEqual(['users']);
  });

  it('keeps a remote schema that is down inconsistent, then consistent again by itself once it answers', async () => {
    const port = await freePort();
    const late = new RemoteGraphQL('type Query { late: String }', { late: () => 'here' });
    const current = (await exported()) as Record<string, unknown>;
    const { resource_version: _, ...metadata } = current;
    const res = await admin('replace_metadata', {
      allow_inconsistent_metadata: true,
      metadata: { ...metadata, remote_schemas: [...(current.remote_schemas as unknown[]), { name: 'late', definition: { url: `http://127.0.0.1:${port}/graphql`, timeout_seconds: 2 } }] },
    });
    expect(res.status).toBe(200);
    const report = await inconsistent();
    expect(report.is_consistent).toBe(false);
    expect(report.inconsistent_objects).toEqual([expect.objectContaining({ type: 'remote_schema', name: 'remote_schema late', reason: expect.stringContaining('could not be introspected') })]);
    // Its schema cannot be read either (the well-known engine's introspect_remote_schema).
    expect(await admin('introspect_remote_schema', { name: 'late' })).toMatchObject({ status: 400, body: { code: 'remote-schema-error', path: '$.args.name' } });
    // The rest is served meanwhile.
    expect((await gql('{ user(id: 1) { id } }')).body).toEqual({ data: { user: { id: 1 } } });
    // A REST endpoint cannot serve the fields of a remote schema that is not served.
    expect((await admin('create_query_collection', { name: 'late_calls', definition: { queries: [{ name: 'late', query: 'query { late }' }] } })).status).toBe(200);
    const refused = await admin('create_rest_endpoint', { name: 'late', url: 'late', methods: ['GET'], definition: { query: { collection_name: 'late_calls', query_name: 'late' } } });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toContain("field 'late' not found in type: 'query_root'");
    expect((await admin('drop_query_collection', { collection: 'late_calls', cascade: true })).status).toBe(200);
    await late.start(port);
    try {
      await eventually(async () => (await inconsistent()).is_consistent === true);
      await eventually(async () => JSON.stringify((await gql('{ late }')).body) === JSON.stringify({ data: { late: 'here' } }));
      const introspected = await admin('introspect_remote_schema', { name: 'late' });
      expect(introspected.status).toBe(200);
      expect(introspected.body.data.__schema.queryType).toMatchObject({ name: 'Query' });
      expect(introspected.body.data.__schema.types.find((t: { name: string }) => t.name === 'Query').fields.map((f: { name: string }) => f.name)).toEqual(['late']);
    } finally {
      await late.stop();
    }
    expect((await admin('remove_remote_schema', { name: 'late' })).status).toBe(200);
    expect(await admin('introspect_remote_schema', { name: 'late' })).toMatchObject({ status: 400, body: { code: 'not-exists', path: '$.args.name' } });
  });

  it('round-trips the remote schemas through export and replace_metadata', async () => {
    const before = await exported();
    const { resource_version: _, ...metadata } = before;
    expect((await admin('replace_metadata', metadata)).status).toBe(200);
    const after = await exported();
    expect(after.remote_schemas).toEqual(before.remote_schemas);
  });
});
