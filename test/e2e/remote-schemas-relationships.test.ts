/**
 * Remote relationships from tables to a remote schema (spec "Remote relationship"), against a real GraphQL server: the new and the legacy forms, `$column` arguments
 * (nested ones too), chains of fields, nested under table relationships, and batched: one
 * remote call per relationship per response, whatever the number of rows. With remote schema
 * permissions on: a role without the remote field has no relationship (rule 5), and the
 * relationship's argument wins over a preset (rule 6).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../support/db.js';
import { startEngine, type Engine } from '../support/engine.js';
import { RemoteGraphQL } from '../support/remote-graphql.js';

const ADMIN = { 'X-Service-Admin-Secret': 'adm' };
let db: TestDatabase;
let other: TestDatabase;
let engine: Engine;

const remote = new RemoteGraphQL(
  `
  type Message { id: Int!  author: Int!  body: String! }
  type Profile { id: Int!  bio: String  tags: [String!]! }
  input ByAuthor { author: Int! }
  type Query {
    messages(author: Int, limit: Int): [Message!]!
    filtered(where: ByAuthor!): [Message!]!
    profile(id: Int!): Profile
  }
`,
  {
    messages: ({ author, limit }: { author?: number; limit?: number }) => {
      const list = Array.from({ length: 3 }, (_, i) => ({ id: author! * 10 + i, author: author!, body: `m${author}.${i}` }));
      return limit === undefined ? list : list.slice(0, limit);
    },
    filtered: ({ where }: { where: { author: number } }) => [{ id: where.author, author: where.author, body: `f${where.author}` }],
    profile: ({ id }: { id: number }) => ({ id, bio: id % 2 ? `odd ${id}` : null, tags: [`t${id}`] }),
  },
);

// A second remote whose joined field fails: for author 1 (the field), and in note 30's `text` (below it).
const flaky = new RemoteGraphQL('type Note { id: Int!  text: String }  type Query { notes(author: Int!): [Note!] }', {
  notes: ({ author }: { author: number }) => {
    if (author === 1) throw new Error('no notes for author 1');
    return [{ id: author * 10, text: () => (author === 3 ? Promise.reject(new Error('text of note 30 is hidden')) : `n${author}`) }];
  },
});

const admin = (type: string, args: unknown) => engine.metadata({ type, args }, ADMIN);
const as = (role: string, query: string, variables?: unknown) => engine.post('/v1/graphql', { query, variables }, { ...ADMIN, 'X-Service-Role': role, 'X-Service-User-Id': '7' });
const gql = (query: string, variables?: unknown) => as('admin', query, variables);
const exported = async () => (await admin('export_metadata', {})).body;

beforeAll(async () => {
  await remote.start();
  await flaky.start();
  db = await freshDatabase();
  await db.sql(`
    CREATE TABLE author (id int PRIMARY KEY, name text NOT NULL);
    INSERT INTO author SELECT g, 'a' || g FROM generate_series(1, 100) g;
    CREATE TABLE book (id serial PRIMARY KEY, author_id int REFERENCES author(id));
    INSERT INTO book (author_id) VALUES (1), (2), (1), (NULL);
  `);
  other = await freshDatabase();
  await other.sql(`
    CREATE TABLE review (id serial PRIMARY KEY, book_id int NOT NULL, stars int NOT NULL);
    INSERT INTO review (book_id, stars) VALUES (1, 5), (1, 3), (2, 4);
    CREATE TABLE shelf (author_id int PRIMARY KEY, label text NOT NULL);
    INSERT INTO shelf VALUES (1, 'first'), (2, 'second');
  `);
  engine = await startEngine({ SERVICE_GRAPHQL_DATABASE_URL: db.url, SERVICE_GRAPHQL_ADMIN_SECRET: 'adm', SERVICE_GRAPHQL_ENABLE_REMOTE_SCHEMA_PERMISSIONS: 'true', OTHER_URL: other.url });
  expect((await admin('pg_add_source', { name: 'other', configuration: { connection_info: { database_url: { from_env: 'OTHER_URL' } } } })).status).toBe(200);
  for (const table of ['review', 'shelf']) expect((await admin('pg_track_table', { source: 'other', table })).status).toBe(200);
  for (const table of ['author', 'book']) expect((await admin('pg_track_table', { table })).status).toBe(200);
  expect((await admin('pg_create_object_relationship', { table: 'book', name: 'author', using: { foreign_key_constraint_on: 'author_id' } })).status).toBe(200);
  expect((await admin('add_remote_schema', { name: 'msgs', definition: { url: remote.url } })).status).toBe(200);
});

afterAll(async () => {
  await engine?.stop();
  await remote.stop();
  await flaky.stop();
  await db?.drop();
  await other?.drop();
});

describe('remote relationships', () => {
  it('creates a relationship (new form) and joins 100 rows with one remote call', async () => {
    const res = await admin('pg_create_remote_relationship', {
      name: 'posts',
      table: 'author',
      definition: { to_remote_schema: { remote_schema: 'msgs', lhs_fields: ['id'], remote_field: { messages: { arguments: { author: '$id' } } } } },
    });
    expect(res.body).toEqual({ message: 'success' });
    remote.calls.length = 0;
    const q = await gql('{ author(order_by: {id: asc}) { id posts(limit: 2) { body } } }');
    expect(q.body.data.author).toHaveLength(100);
    expect(q.body.data.author[0]).toEqual({ id: 1, posts: [{ body: 'm1.0' }, { body: 'm1.1' }] });
    expect(q.body.data.author[99]).toEqual({ id: 100, posts: [{ body: 'm100.0' }, { body: 'm100.1' }] });
    expect(remote.queries()).toHaveLength(1);
    // The key column, not selected, is not in the answer.
    expect(Object.keys(q.body.data.author[5])).toEqual(['id', 'posts']);
  });

  it("passes the remote's Set-Cookie headers of a join on to the client over HTTP", async () => {
    remote.responseHeaders = { 'set-cookie': ['joined=1; Path=/'] };
    try {
      const res = await fetch(`${engine.url}/v1/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...ADMIN }, body: JSON.stringify({ query: '{ author(where: {id: {_eq: 1}}) { posts(limit: 1) { body } } }' }) });
      expect(await res.json()).toEqual({ data: { author: [{ posts: [{ body: 'm1.0' }] }] } });
      expect(res.headers.getSetCookie()).toEqual(['joined=1; Path=/']);
    } finally {
      remote.responseHeaders = {};
    }
  });

  it('joins under a table relationship, with aliases and __typename, skipping null keys', async () => {
    remote.calls.length = 0;
    const q = await gql('{ book(order_by: {id: asc}) { id author { name p: posts(limit: 1) { __typename id } } } }');
    expect(q.body).toEqual({
      data: {
        book: [
          { id: 1, author: { name: 'a1', p: [{ __typename: 'Message', id: 10 }] } },
          { id: 2, author: { name: 'a2', p: [{ __typename: 'Message', id: 20 }] } },
          { id: 3, author: { name: 'a1', p: [{ __typename: 'Message', id: 10 }] } },
          { id: 4, author: null },
        ],
      },
    });
    // One call, the distinct keys once each.
    expect(remote.queries()).toHaveLength(1);
    expect(Object.keys(remote.queries()[0]!.variables!)).toHaveLength(2);
  });

  it('takes the legacy form, a chain of fields and $column inside an input object', async () => {
    expect((await admin('pg_create_remote_relationship', { name: 'bio', table: 'author', remote_schema: 'msgs', service_fields: ['id'], remote_field: { profile: { arguments: { id: '$id' }, field: { bio: {} } } } })).body).toEqual({ message: 'success' });
    expect((await admin('pg_create_remote_relationship', { name: 'filtered', table: 'author', definition: { to_remote_schema: { remote_schema: 'msgs', lhs_fields: ['id'], remote_field: { filtered: { arguments: { where: { author: '$id' } } } } } } })).body).toEqual({ message: 'success' });
    const q = await gql('{ author(where: {id: {_in: [1, 2]}}, order_by: {id: asc}) { id bio filtered { body } } }');
    expect(q.body).toEqual({ data: { author: [{ id: 1, bio: 'odd 1', filtered: [{ body: 'f1' }] }, { id: 2, bio: null, filtered: [{ body: 'f2' }] }] } });
    const stored = (await exported()).sources[0].tables.find((t: { table: { name: string } }) => t.table.name === 'author').remote_relationships;
    expect(stored.map((r: { name: string }) => r.name)).toEqual(['bio', 'filtered', 'posts']);
    expect(stored[0].definition).toEqual({ to_remote_schema: { remote_schema: 'msgs', lhs_fields: ['id'], remote_field: { profile: { arguments: { id: '$id' }, field: { bio: {} } } } } });
  });

  it('takes the legacy form on the deprecated /v1/query (create_remote_relationship)', async () => {
    const res = await engine.query({ type: 'create_remote_relationship', args: { name: 'legacy', table: 'author', remote_schema: 'msgs', service_fields: ['id'], remote_field: { profile: { arguments: { id: '$id' } } } } }, ADMIN);
    expect(res.body).toEqual({ message: 'success' });
    expect((await gql('{ author(where: {id: {_eq: 3}}) { legacy { bio tags } } }')).body).toEqual({ data: { author: [{ legacy: { bio: 'odd 3', tags: ['t3'] } }] } });
    expect((await engine.query({ type: 'delete_remote_relationship', args: { table: 'author', name: 'legacy' } }, ADMIN)).body).toEqual({ message: 'success' });
  });

  it('refuses what does not resolve, with the reason, storing nothing', async () => {
    const before = await exported();
    const bad = async (args: Record<string, unknown>, expected: Record<string, unknown>) => {
      const res = await admin('pg_create_remote_relationship', { name: 'x', table: 'author', ...args });
      expect(res.status, JSON.stringify(args)).toBe(400);
      expect(res.body, JSON.stringify(args)).toMatchObject(expected);
    };
    const def = (to: Record<string, unknown>) => ({ definition: { to_remote_schema: { remote_schema: 'msgs', lhs_fields: ['id'], remote_field: { messages: { arguments: { author: '$id' } } }, ...to } } });
    await bad(def({ lhs_fields: ['nope'], remote_field: { messages: { arguments: { author: '$nope' } } } }), { error: expect.stringContaining('column "nope" does not exist') });
    await bad(def({ remote_schema: 'nope' }), { error: expect.stringContaining('remote schema "nope" does not exist') });
    await bad(def({ remote_field: { nope: { arguments: { author: '$id' } } } }), { error: expect.stringContaining('field "nope" does not exist in type "Query"') });
    await bad(def({ remote_field: { messages: { arguments: { writer: '$id' } } } }), { error: expect.stringContaining('argument "writer" does not exist') });
    await bad(def({ remote_field: { messages: { arguments: { author: '$name' } } } }), { path: '$.args', code: 'invalid-params' });
    await bad(def({ remote_field: { a: {}, b: {} } }), { path: '$.args.definition.to_remote_schema.remote_field' });
    await bad({ name: 'posts', ...def({}) }, { path: '$.args', code: 'already-exists' });
    await bad({ name: 'name', ...def({}) }, { path: '$.args', code: 'already-exists' });
    expect(await exported()).toEqual(before);
    expect((await admin('pg_delete_remote_relationship', { table: 'author', name: 'nope' })).body).toMatchObject({ path: '$.args', code: 'not-exists' });
  });

  it('follows the remote schema permissions of the role (rules 5 and 6)', async () => {
    expect((await admin('pg_create_select_permission', { table: 'author', role: 'user', permission: { columns: ['id', 'name'], filter: { id: { _lte: 2 } } } })).status).toBe(200);
    // No permission on the remote schema: no relationship fields.
    expect((await as('user', '{ author { id posts { body } } }')).body.errors[0].message).toContain('posts');
    // A permission with a preset on the argument the relationship sets: the relationship's value wins; `limit` preset still added.
    const schema = 'type Message { body: String! } type Query { messages(author: Int @preset(value: "x-service-user-id"), limit: Int @preset(value: 1)): [Message!]! }';
    expect((await admin('add_remote_schema_permissions', { remote_schema: 'msgs', role: 'user', definition: { schema } })).status).toBe(200);
    remote.calls.length = 0;
    expect((await as('user', '{ author(order_by: {id: asc}) { id posts { body } } }')).body).toEqual({ data: { author: [{ id: 1, posts: [{ body: 'm1.0' }] }, { id: 2, posts: [{ body: 'm2.0' }] }] } });
    expect(remote.queries()[0]!.query).toContain('limit: 1');
    // `bio` needs Query.profile, which the role's document leaves out.
    expect((await as('user', '{ author { bio } }')).body.errors[0].message).toContain('bio');
  });

  it('updates and deletes a relationship; removing the remote schema is refused while one uses it', async () => {
    expect((await admin('pg_update_remote_relationship', { name: 'posts', table: 'author', definition: { to_remote_schema: { remote_schema: 'msgs', lhs_fields: ['id'], remote_field: { messages: { arguments: { author: '$id', limit: 1 } } } } } })).body).toEqual({ message: 'success' });
    expect((await gql('{ author(where: {id: {_eq: 3}}) { posts { id } } }')).body).toEqual({ data: { author: [{ posts: [{ id: 30 }] }] } });
    expect((await admin('remove_remote_schema', { name: 'msgs' })).body).toEqual({
      path: '$.args',
      code: 'dependency-error',
      error: 'cannot drop due to the following dependent objects : remote_relationship author.bio in source default, remote_relationship author.filtered in source default, remote_relationship author.posts in source default',
    });
    for (const name of ['posts', 'bio', 'filtered']) expect((await admin('pg_delete_remote_relationship', { table: 'author', name })).body).toEqual({ message: 'success' });
    expect((await exported()).sources[0].tables.find((t: { table: { name: string } }) => t.table.name === 'author').remote_relationships).toBeUndefined();
  });

  it('joins a table of another source (to_source, object and array), one statement per relationship', async () => {
    expect((await admin('pg_create_remote_relationship', { name: 'reviews', table: 'book', definition: { to_source: { relationship_type: 'array', source: 'other', table: 'review', field_mapping: { id: 'book_id' } } } })).body).toEqual({ message: 'success' });
    expect((await admin('pg_create_remote_relationship', { name: 'shelf', table: 'author', definition: { to_source: { relationship_type: 'object', source: 'other', table: 'shelf', field_mapping: { id: 'author_id' } } } })).body).toEqual({ message: 'success' });
    const q = await gql('{ book(order_by: {id: asc}) { id reviews(order_by: {stars: desc}) { stars } author { shelf { label } } } }');
    expect(q.body).toEqual({
      data: {
        book: [
          { id: 1, reviews: [{ stars: 5 }, { stars: 3 }], author: { shelf: { label: 'first' } } },
          { id: 2, reviews: [{ stars: 4 }], author: { shelf: { label: 'second' } } },
          { id: 3, reviews: [], author: { shelf: { label: 'first' } } },
          { id: 4, reviews: [], author: null },
        ],
      },
    });
    // Arguments of the target's rows, and the target's permissions for a role.
    expect((await gql('{ book(where: {id: {_eq: 1}}) { reviews(where: {stars: {_lt: 5}}) { stars } } }')).body).toEqual({ data: { book: [{ reviews: [{ stars: 3 }] }] } });
    expect((await as('user', '{ author { shelf { label } } }')).body.errors[0].message).toContain('shelf');
    expect((await admin('pg_create_select_permission', { source: 'other', table: 'shelf', role: 'user', permission: { columns: ['label'], filter: { author_id: { _eq: 1 } } } })).status).toBe(200);
    expect((await as('user', '{ author(order_by: {id: asc}) { id shelf { label } } }')).body).toEqual({ data: { author: [{ id: 1, shelf: { label: 'first' } }, { id: 2, shelf: null }] } });
    const stored = (await exported()).sources[0].tables.find((t: { table: { name: string } }) => t.table.name === 'book').remote_relationships;
    expect(stored).toEqual([{ name: 'reviews', definition: { to_source: { relationship_type: 'array', source: 'other', table: { schema: 'public', name: 'review' }, field_mapping: { id: 'book_id' } } } }]);
    // What does not resolve is refused.
    const bad = await admin('pg_create_remote_relationship', { name: 'x', table: 'book', definition: { to_source: { relationship_type: 'array', source: 'other', table: 'review', field_mapping: { id: 'nope' } } } });
    expect(bad.body).toMatchObject({ code: 'invalid-configuration', error: expect.stringContaining('column "nope" does not exist') });
    const untracked = await admin('pg_create_remote_relationship', { name: 'x', table: 'book', definition: { to_source: { relationship_type: 'array', source: 'other', table: 'nope', field_mapping: { id: 'id' } } } });
    expect(untracked.body.error).toContain('is not tracked');
  });

  it('joins the answer of a mutation once it committed (remote schema and another source), and refuses them in subscriptions', async () => {
    const latest = { to_remote_schema: { remote_schema: 'msgs', lhs_fields: ['id'], remote_field: { messages: { arguments: { author: '$id', limit: 1 } } } } };
    expect((await admin('pg_create_remote_relationship', { name: 'latest', table: 'author', definition: latest })).status).toBe(200);
    remote.calls.length = 0;
    const m = await gql('mutation { insert_book(objects: [{author_id: 1}, {author_id: 2}]) { affected_rows returning { author { latest { body } } reviews { stars } } } }');
    expect(m.body).toEqual({
      data: { insert_book: { affected_rows: 2, returning: [{ author: { latest: [{ body: 'm1.0' }] }, reviews: [] }, { author: { latest: [{ body: 'm2.0' }] }, reviews: [] }] } },
    });
    expect(remote.queries()).toHaveLength(1);
    // By primary key, and a rolled-back mutation makes no remote call.
    const one = await gql('mutation { insert_book_one(object: {id: 1000, author_id: 3}) { id author { shelf { label } latest { id } } } }');
    expect(one.body).toEqual({ data: { insert_book_one: { id: 1000, author: { shelf: null, latest: [{ id: 30 }] } } } });
    remote.calls.length = 0;
    const failed = await gql('mutation { insert_book_one(object: {id: 1000, author_id: 3}) { id author { latest { id } } } }');
    expect(failed.body.errors[0].extensions.code).toBe('constraint-violation');
    expect(remote.calls).toHaveLength(0);
    const sub = await gql('subscription { author(limit: 1) { latest { id } } }');
    expect(sub.body.errors[0]).toMatchObject({ message: 'remote relationships cannot be selected in subscriptions', extensions: { code: 'not-supported' } });
  });
});

describe('remote relationships that fail', () => {
  const notesQuery = '{ author(where: {id: {_lte: 3}}, order_by: {id: asc}) { id notes { id text } } }';
  const notesPath = '$.selectionSet.author.selectionSet.notes';

  beforeAll(async () => {
    expect((await admin('add_remote_schema', { name: 'flaky', definition: { url: flaky.url, timeout_seconds: 5 } })).status).toBe(200);
    const notes = { to_remote_schema: { remote_schema: 'flaky', lhs_fields: ['id'], remote_field: { notes: { arguments: { author: '$id' } } } } };
    expect((await admin('pg_create_remote_relationship', { name: 'notes', table: 'author', definition: notes })).body).toEqual({ message: 'success' });
  });

  it("passes the remote's errors on at their places in the response, under the relationship field", async () => {
    flaky.calls.length = 0;
    expect((await gql(notesQuery)).body).toEqual({
      data: { author: [{ id: 1, notes: null }, { id: 2, notes: [{ id: 20, text: 'n2' }] }, { id: 3, notes: [{ id: 30, text: null }] }] },
      errors: [
        { message: 'no notes for author 1', path: ['author', 0, 'notes'] },
        { message: 'text of note 30 is hidden', path: ['author', 2, 'notes', 0, 'text'] },
      ],
    });
    expect(flaky.queries()).toHaveLength(1);
    // A key several rows share: one call for it, its error at every row's field.
    const books = await gql('{ book(where: {id: {_lte: 3}}, order_by: {id: asc}) { id author { notes { id } } } }');
    expect(books.body).toEqual({
      data: { book: [{ id: 1, author: { notes: null } }, { id: 2, author: { notes: [{ id: 20 }] } }, { id: 3, author: { notes: null } }] },
      errors: [
        { message: 'no notes for author 1', path: ['book', 0, 'author', 'notes'] },
        { message: 'no notes for author 1', path: ['book', 2, 'author', 'notes'] },
      ],
    });
    // An error of the whole call (no path into a row's field): at the field's first place.
    flaky.answer = () => JSON.stringify({ data: null, errors: [{ message: 'service paused', extensions: { code: 'PAUSED' } }] });
    try {
      expect((await gql(notesQuery)).body).toEqual({
        data: { author: [{ id: 1, notes: null }, { id: 2, notes: null }, { id: 3, notes: null }] },
        errors: [{ message: 'service paused', extensions: { code: 'PAUSED' }, path: ['author', 0, 'notes'] }],
      });
    } finally {
      flaky.answer = null;
    }
  });

  it('fails the request at the relationship field when the remote cannot be called', async () => {
    await flaky.stop();
    try {
      const r = await gql(notesQuery);
      expect(r.status).toBe(200);
      expect(r.body).toEqual({
        data: null,
        errors: [{ message: `error calling remote schema "flaky": connect ECONNREFUSED 127.0.0.1:${flaky.port}`, extensions: { path: notesPath, code: 'remote-schema-error' } }],
      });
    } finally {
      await flaky.start();
    }
    expect((await gql('{ author(where: {id: {_eq: 2}}) { notes { id } } }')).body).toEqual({ data: { author: [{ notes: [{ id: 20 }] }] } });
  });

  it('fails the request at the relationship field when the remote answers something malformed', async () => {
    const failsWith = async (answer: string, reason: string) => {
      flaky.answer = () => answer;
      try {
        expect((await gql(notesQuery)).body, answer).toEqual({ data: null, errors: [{ message: `error calling remote schema "flaky": ${reason}`, extensions: { path: notesPath, code: 'remote-schema-error' } }] });
      } finally {
        flaky.answer = null;
      }
    };
    await failsWith('<html>oops</html>', 'the remote server answered status 200 with a body that is not JSON');
    await failsWith('{"result": []}', 'the remote server answered status 200 with JSON that is not a GraphQL response');
    await failsWith('{"data": null}', 'the remote server\'s answer is not what was asked: its "data" is not an object');
    await failsWith('{"data": {"r0": [], "r2": []}}', 'the remote server\'s answer is not what was asked: its "data" has no "r1" (asked for the rows with {"id":2})');
  });

  it('fails the request at the relationship field when a to_source statement fails', async () => {
    await other.sql('CREATE TABLE fragile (author_id int NOT NULL, word text NOT NULL)');
    expect((await admin('pg_track_table', { source: 'other', table: 'fragile' })).status).toBe(200);
    const words = { to_source: { relationship_type: 'array', source: 'other', table: 'fragile', field_mapping: { id: 'author_id' } } };
    expect((await admin('pg_create_remote_relationship', { name: 'words', table: 'author', definition: words })).body).toEqual({ message: 'success' });
    // Dropped behind the engine's back: the statement fails.
    await other.sql('DROP TABLE fragile');
    const r = await gql('{ author(where: {id: {_eq: 1}}) { id words { word } } }');
    expect(r.body).toEqual({ data: null, errors: [{ message: 'relation "public.fragile" does not exist', extensions: { path: '$.selectionSet.author.selectionSet.words', code: 'constraint-error' } }] });
  });
});
