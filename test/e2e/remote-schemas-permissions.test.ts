/**
 * Remote schema permissions (spec "Remote schema" permission rules 1-4, "Inherited role" rule 5,
 * "Authentication" item 11) with `--enable-remote-schema-permissions`, against a real GraphQL
 * server: a role sees the subset its document gives, `@preset` arguments and input fields are
 * set by the engine (from the session, or static), documents that do not fit the remote are
 * refused with the reason and nothing stored, inherited roles get agreeing parents' permission.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../support/db.js';
import { startEngine, type Engine } from '../support/engine.js';
import { RemoteGraphQL } from '../support/remote-graphql.js';

const ADMIN = { 'X-Service-Admin-Secret': 'adm' };
let db: TestDatabase;
let engine: Engine;

const SDL = `
  type Message { id: Int!  author: Int!  body: String!  secret: String }
  input MessageFilter { author: Int  limit: Int  contains: String }
  type Query {
    messages(author: Int, limit: Int, filter: MessageFilter): [Message!]!
    tagged(tag: String!): String
    stats: Int
  }
  type Mutation { post(author: Int!, body: String!): Message }
`;
const messages = [
  { id: 1, author: 1, body: 'one', secret: 's1' },
  { id: 2, author: 2, body: 'two', secret: 's2' },
  { id: 3, author: 1, body: 'three', secret: 's3' },
];
const remote = new RemoteGraphQL(SDL, {
  messages: (a: { author?: number; limit?: number; filter?: { author?: number; limit?: number; contains?: string } }) => {
    const author = a.author ?? a.filter?.author;
    const limit = a.limit ?? a.filter?.limit;
    const list = messages.filter((m) => (author === undefined || m.author === author) && (a.filter?.contains === undefined || m.body.includes(a.filter.contains)));
    return limit === undefined ? list : list.slice(0, limit);
  },
  tagged: ({ tag }: { tag: string }) => `tag:${tag}`,
  stats: () => messages.length,
  post: ({ author, body }: { author: number; body: string }) => ({ id: 9, author, body, secret: null }),
});

const USER_SCHEMA = `
  type Message { id: Int!  author: Int!  body: String! }
  input MessageFilter { author: Int @preset(value: "x-service-user-id")  contains: String }
  type Query {
    messages(author: Int @preset(value: "x-service-user-id"), limit: Int @preset(value: 2), filter: MessageFilter): [Message!]!
    tagged(tag: String! @preset(value: "x-service-user-id", static: true)): String
  }
`;

const admin = (type: string, args: unknown) => engine.metadata({ type, args }, ADMIN);
const as = (role: string, query: string, variables?: unknown, extra: Record<string, string> = {}) =>
  engine.post('/v1/graphql', { query, variables }, { ...ADMIN, 'X-Service-Role': role, ...extra });
const exported = async () => (await admin('export_metadata', {})).body;

beforeAll(async () => {
  await remote.start();
  db = await freshDatabase();
  engine = await startEngine({ SERVICE_GRAPHQL_DATABASE_URL: db.url, SERVICE_GRAPHQL_ADMIN_SECRET: 'adm' }, ['--enable-remote-schema-permissions']);
  expect((await admin('add_remote_schema', { name: 'msgs', definition: { url: remote.url } })).status).toBe(200);
});

afterAll(async () => {
  await engine?.stop();
  await remote.stop();
  await db?.drop();
});

describe('remote schema permissions', () => {
  it('shows a role nothing of a remote schema until it has a permission; admin sees it whole', async () => {
    expect((await as('user', '{ stats }')).body.errors[0].message).toContain('stats');
    expect((await as('admin', '{ stats }')).body).toEqual({ data: { stats: 3 } });
  });

  it('refuses documents that do not fit the remote schema, with the reason, storing nothing', async () => {
    const before = await exported();
    const cases: [string, string][] = [
      ['type Query { nope: Int }', 'field "nope" does not exist in type "Query"'],
      ['type Nope { a: Int } type Query { stats: Int }', 'type "Nope" does not exist'],
      ['type Query { stats: String }', 'field Query.stats has type String but the remote schema\'s is Int'],
      ['type Query { messages(writer: Int): [Message!]! } type Message { id: Int! }', 'argument "writer" does not exist in field Query.messages'],
      ['type Query { messages(author: String): [Message!]! } type Message { id: Int! }', 'argument author of Query.messages has type String'],
      ['type Query { tagged: String }', 'the required argument "tag" of Query.tagged is missing'],
      ['type Query { messages(limit: Int @preset(value: "many")): [Message!]! } type Message { id: Int! }', 'the @preset value of argument limit of Query.messages is not a valid Int'],
      ['input Message { id: Int } type Query { stats: Int }', 'type "Message" is an input object type but in the remote schema it is an object type'],
      ['type Query { stats: Int', 'does not parse'],
      ['type Query { messages: [Msg!]! }', 'Unknown type'],
    ];
    for (const [schema, error] of cases) {
      const res = await admin('add_remote_schema_permissions', { remote_schema: 'msgs', role: 'user', definition: { schema } });
      expect(res.status, schema).toBe(400);
      expect(res.body.path, schema).toBe('$.args');
      expect(res.body.error, schema).toContain(error);
    }
    expect((await admin('add_remote_schema_permissions', { remote_schema: 'nope', role: 'user', definition: { schema: 'type Query { stats: Int }' } })).body).toMatchObject({ path: '$.args', code: 'not-exists' });
    expect((await admin('add_remote_schema_permissions', { remote_schema: 'msgs', role: 'user', definition: {} })).body).toMatchObject({ path: '$.args.definition' });
    expect(await exported()).toEqual(before);
  });

  it('gives a role its subset, with presets from the session and static ones the role cannot set', async () => {
    expect((await admin('add_remote_schema_permissions', { remote_schema: 'msgs', role: 'user', definition: { schema: USER_SCHEMA }, comment: 'own messages' })).body).toEqual({ message: 'success' });
    expect((await exported()).remote_schemas[0].permissions).toEqual([{ role: 'user', definition: { schema: USER_SCHEMA }, comment: 'own messages' }]);
    remote.calls.length = 0;
    // The session's user id as `author`, `limit: 2` static.
    expect((await as('user', '{ messages { id body } }', undefined, { 'X-Service-User-Id': '1' })).body).toEqual({ data: { messages: [{ id: 1, body: 'one' }, { id: 3, body: 'three' }] } });
    expect((await as('user', '{ messages { id } }', undefined, { 'X-Service-User-Id': '2' })).body).toEqual({ data: { messages: [{ id: 2 }] } });
    // static: the text itself, not the session value.
    expect((await as('user', '{ tagged }', undefined, { 'X-Service-User-Id': '2' })).body).toEqual({ data: { tagged: 'tag:x-service-user-id' } });
    // Input field presets, in a literal and through a variable.
    expect((await as('user', '{ messages(filter: { contains: "t" }) { id } }', undefined, { 'X-Service-User-Id': '1' })).body).toEqual({ data: { messages: [{ id: 3 }] } });
    expect((await as('user', 'query ($f: MessageFilter) { messages(filter: $f) { id } }', { f: { contains: 'o' } }, { 'X-Service-User-Id': '2' })).body).toEqual({ data: { messages: [{ id: 2 }] } });
    const sent = remote.queries().map((c) => c.query);
    expect(sent.some((q) => q.includes('limit: 2') && q.includes('author: $__service_preset_0'))).toBe(true);
    // The role can neither give a preset argument nor see what its document leaves out.
    expect((await as('user', '{ messages(author: 2) { id } }', undefined, { 'X-Service-User-Id': '1' })).body.errors[0].message).toContain('author');
    expect((await as('user', '{ messages { secret } }', undefined, { 'X-Service-User-Id': '1' })).body.errors[0].message).toContain('secret');
    expect((await as('user', 'mutation { post(author: 1, body: "x") { id } }', undefined, { 'X-Service-User-Id': '1' })).body.errors).toBeDefined();
    expect((await as('user', '{ stats }', undefined, { 'X-Service-User-Id': '1' })).body.errors[0].message).toContain('stats');
    // A session preset needs its session variable.
    expect((await as('user', '{ messages { id } }')).body.errors[0].message).toContain('x-service-user-id');
    const t = await as('user', '{ __type(name: "MessageFilter") { inputFields { name } } }', undefined, { 'X-Service-User-Id': '1' });
    expect(t.body.data.__type.inputFields.map((f: { name: string }) => f.name)).toEqual(['contains']);
  });

  it('gives an inherited role the permission its parents agree on, and reports a conflict', async () => {
    expect((await admin('add_remote_schema_permissions', { remote_schema: 'msgs', role: 'reader', definition: { schema: 'type Query { stats: Int }' } })).status).toBe(200);
    expect((await admin('add_remote_schema_permissions', { remote_schema: 'msgs', role: 'viewer', definition: { schema: '  type Query { stats: Int }\n' } })).status).toBe(200);
    expect((await admin('add_inherited_role', { role_name: 'same', role_set: ['reader', 'viewer'] })).status).toBe(200);
    expect((await as('same', '{ stats }')).body).toEqual({ data: { stats: 3 } });
    expect((await admin('add_inherited_role', { role_name: 'mixed', role_set: ['reader', 'user'] })).status).toBe(200);
    expect((await as('mixed', '{ stats }', undefined, { 'X-Service-User-Id': '1' })).body.errors).toBeDefined();
    const report = (await admin('get_inconsistent_metadata', {})).body;
    expect(report.inconsistent_objects).toContainEqual(expect.objectContaining({ type: 'inherited role permission inconsistency', name: 'mixed', entity: { remote_schema: 'msgs', permission_type: 'remote_schema' } }));
    // An explicit permission resolves it.
    expect((await admin('add_remote_schema_permissions', { remote_schema: 'msgs', role: 'mixed', definition: { schema: 'type Query { stats: Int }' } })).status).toBe(200);
    expect((await as('mixed', '{ stats }')).body).toEqual({ data: { stats: 3 } });
  });

  it('round-trips the permissions through export and replace_metadata', async () => {
    const before = await exported();
    const { resource_version: _, ...metadata } = before;
    expect((await admin('replace_metadata', metadata)).body).toEqual({ message: 'success' });
    expect((await exported()).remote_schemas).toEqual(before.remote_schemas);
  });

  it('drops a permission, and refuses to drop one that does not exist', async () => {
    expect((await admin('drop_remote_schema_permissions', { remote_schema: 'msgs', role: 'mixed' })).body).toEqual({ message: 'success' });
    // Back to its parents' conflicting permissions: nothing.
    expect((await as('mixed', '{ stats }', undefined, { 'X-Service-User-Id': '1' })).body.errors[0].message).toContain('stats');
    expect((await admin('drop_remote_schema_permissions', { remote_schema: 'msgs', role: 'mixed' })).body).toMatchObject({ path: '$.args', code: 'not-exists' });
    // A parent of inherited roles cannot lose its only permission (the inherited roles would lose their parent).
    expect((await admin('drop_remote_schema_permissions', { remote_schema: 'msgs', role: 'reader' })).body).toMatchObject({ code: 'invalid-configuration', error: expect.stringContaining('parent role(s) are not found: reader') });
  });
});
