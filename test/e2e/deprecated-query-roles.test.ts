/**
 * The deprecated `/v1/query` data operations as a role other than admin: its permissions apply
 * (columns, filters, limits, checks, presets, session variables), and it may run nothing else.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useEngine } from '../support/fixture.js';

const SECRET = 'top-secret';
const fx = useEngine({ SERVICE_GRAPHQL_ADMIN_SECRET: SECRET });
const open = useEngine();

const ADMIN = { 'x-service-admin-secret': SECRET };
const as = (role: string, userId?: string): Record<string, string> => ({ ...ADMIN, 'x-service-role': role, ...(userId === undefined ? {} : { 'x-service-user-id': userId }) });
const q = (type: string, args: unknown, headers: Record<string, string> = ADMIN) => fx.engine.query({ type, args }, headers);
const user = (type: string, args: unknown, userId = '1') => q(type, args, as('user', userId));
const denied = (error: string, path = '$.args') => ({ status: 400, body: { path, error, code: 'permission-denied' } });
const articles = async () => (await q('select', { table: 'article', columns: ['id', 'title', 'author_id', 'created_by'], order_by: 'id' })).body;

const SCHEMA = `
  CREATE TABLE author (id serial PRIMARY KEY, name text, email text, owner_id integer);
  CREATE TABLE article (id serial PRIMARY KEY, title text, body text, author_id integer REFERENCES author(id), published boolean NOT NULL DEFAULT true, created_by text);
  INSERT INTO author (name, email, owner_id) VALUES ('Ann', 'ann@x', 1), ('Bob', 'bob@x', 2), ('Cy', 'cy@x', 1);
  INSERT INTO article (title, body, author_id, published) VALUES
    ('A1', 'b1', 1, true), ('A2', 'b2', 1, false), ('B1', 'b3', 2, true), ('C1', 'b4', 3, true), ('C2', 'b5', 3, true);
  SELECT setval('article_id_seq', 100);
`;

const OWNED = { author: { owner_id: { _eq: 'X-Service-User-Id' } } };

beforeAll(async () => {
  await fx.db.sql(SCHEMA);
  const setup = [
    { type: 'track_table', args: 'author' },
    { type: 'track_table', args: 'article' },
    { type: 'create_object_relationship', args: { table: 'article', name: 'author', using: { foreign_key_constraint_on: 'author_id' } } },
    { type: 'create_array_relationship', args: { table: 'author', name: 'articles', using: { foreign_key_constraint_on: { table: 'article', column: 'author_id' } } } },
    { type: 'create_select_permission', args: { table: 'author', role: 'user', permission: { columns: ['id', 'name'], filter: { owner_id: { _eq: 'X-Service-User-Id' } } } } },
    { type: 'create_select_permission', args: { table: 'article', role: 'user', permission: { columns: ['id', 'title', 'author_id', 'published'], filter: { published: true }, limit: 3 } } },
    { type: 'create_insert_permission', args: { table: 'article', role: 'user', permission: { columns: ['title', 'body', 'author_id'], check: OWNED, set: { created_by: 'X-Service-User-Id' } } } },
    { type: 'create_update_permission', args: { table: 'article', role: 'user', permission: { columns: ['title', 'body'], filter: OWNED, check: { title: { _ne: 'forbidden' } }, set: { created_by: 'X-Service-User-Id' } } } },
    { type: 'create_delete_permission', args: { table: 'article', role: 'user', permission: { filter: OWNED } } },
    { type: 'create_select_permission', args: { table: 'article', role: 'reader', permission: { columns: ['id', 'title'], filter: {} } } },
  ];
  const r = await q('bulk', setup);
  expect(r.status).toBe(200);
});

describe('who may call', () => {
  it('a role needs the admin secret when one is configured', async () => {
    const r = await fx.engine.query({ type: 'select', args: { table: 'article', columns: ['id'] } }, { 'x-service-role': 'user', 'x-service-user-id': '1' });
    expect(r).toEqual({ status: 401, body: { path: '$', error: 'invalid x-service-admin-secret/x-service-access-key', code: 'access-denied' } });
  });

  it('a role may run only data operations, alone or in a bulk; anything else stays admin only', async () => {
    const restricted = { status: 400, body: { path: '$.args', error: 'restricted access : admin only', code: 'access-denied' } };
    expect(await user('run_sql', { sql: 'DELETE FROM article' })).toEqual(restricted);
    expect(await user('export_metadata', {})).toEqual(restricted);
    expect(await user('bulk', [{ type: 'select', args: { table: 'article', columns: ['id'] } }, { type: 'run_sql', args: { sql: 'DELETE FROM article' } }])).toEqual(restricted);
    expect(await fx.engine.metadata({ type: 'export_metadata', args: {} }, as('user', '1'))).toEqual(restricted);
    expect(await fx.engine.post('/v2/query', { type: 'select', args: { table: 'article', columns: ['id'] } }, as('user', '1'))).toEqual(restricted);
    expect((await articles()).length).toBe(5);
    const bulk = await user('bulk', [
      { type: 'count', args: { table: 'article' } },
      { type: 'select', args: { table: 'article', columns: ['id'], order_by: 'id', limit: 1 } },
    ]);
    expect(bulk).toEqual({ status: 200, body: [{ count: 4 }, [{ id: 1 }]] });
  });

  it('without an admin secret configured, X-Service-Role alone chooses the role', async () => {
    await open.db.sql(SCHEMA);
    await open.engine.query({ type: 'track_table', args: 'article' });
    await open.engine.query({ type: 'create_select_permission', args: { table: 'article', role: 'reader', permission: { columns: ['id'], filter: { published: false } } } });
    expect((await open.engine.query({ type: 'select', args: { table: 'article', columns: ['*'] } }, { 'x-service-role': 'reader' })).body).toEqual([{ id: 2 }]);
    expect((await open.engine.query({ type: 'run_sql', args: { sql: 'SELECT 1' } }, { 'x-service-role': 'reader' })).body.code).toBe('access-denied');
  });
});

describe('select and count', () => {
  it('reads the permitted columns ("*" expands to them) of the rows the filter lets through, up to the limit', async () => {
    expect((await user('select', { table: 'article', columns: ['*'], order_by: 'id' })).body).toEqual([
      { id: 1, title: 'A1', author_id: 1, published: true },
      { id: 3, title: 'B1', author_id: 2, published: true },
      { id: 4, title: 'C1', author_id: 3, published: true },
    ]);
    // The permission's limit caps a larger one; a smaller one applies.
    expect((await user('select', { table: 'article', columns: ['id'], order_by: '-id', limit: 10 })).body).toEqual([{ id: 5 }, { id: 4 }, { id: 3 }]);
    expect((await user('select', { table: 'article', columns: ['id'], order_by: 'id', limit: 1, offset: 1 })).body).toEqual([{ id: 3 }]);
  });

  it('reads related rows through their own select filter, in where and in nested selects', async () => {
    // Bob's author row belongs to user 2: user 1 reaches none of it.
    expect((await user('select', { table: 'article', columns: ['id'], where: { author: { name: 'Bob' } } })).body).toEqual([]);
    expect((await user('select', { table: 'article', columns: ['id'], where: { author: { name: 'Bob' } } }, '2')).body).toEqual([{ id: 3 }]);
    const nested = await user('select', { table: 'article', columns: ['title', { name: 'author', columns: ['name'] }], order_by: 'id' });
    expect(nested.body).toEqual([
      { title: 'A1', author: { name: 'Ann' } },
      { title: 'B1', author: null },
      { title: 'C1', author: { name: 'Cy' } },
    ]);
    const authors = await user('select', { table: 'author', columns: ['name', { name: 'articles', columns: ['title'], order_by: 'id' }], order_by: 'id' });
    expect(authors.body).toEqual([
      { name: 'Ann', articles: [{ title: 'A1' }] },
      { name: 'Cy', articles: [{ title: 'C1' }, { title: 'C2' }] },
    ]);
  });

  it('counts the rows the filter lets through (the limit does not apply)', async () => {
    expect((await user('count', { table: 'article' })).body).toEqual({ count: 4 });
    expect((await user('count', { table: 'article', where: { author_id: 3 } })).body).toEqual({ count: 2 });
    expect((await user('count', { table: 'article', distinct: ['author_id'] })).body).toEqual({ count: 3 });
  });

  it('refuses a table without select permission, and columns it does not grant wherever they are read', async () => {
    expect(await q('select', { table: 'author', columns: ['id'] }, as('reader'))).toEqual(denied('select on "author" for role "reader" is not allowed. '));
    expect(await q('count', { table: 'author' }, as('reader'))).toEqual(denied('select on "author" for role "reader" is not allowed. ; "count" is only allowed if the role has "select" permissions on the table'));
    expect(await user('select', { table: 'article', columns: ['id', 'body'] })).toEqual(denied('role "user" does not have permission to select column "body"', '$.args.columns[1]'));
    expect(await user('select', { table: 'article', columns: ['id'], where: { body: 'b1' } })).toEqual(denied('role "user" does not have permission to select column "body"', '$.args.where'));
    expect(await user('select', { table: 'article', columns: ['id'], where: { author: { email: 'ann@x' } } })).toEqual(denied('role "user" does not have permission to select column "email"', '$.args.where'));
    expect(await user('select', { table: 'article', columns: ['id'], order_by: 'body' })).toEqual(denied('role "user" does not have permission to select column "body"', '$.args.order_by'));
    expect(await user('count', { table: 'article', distinct: ['body'] })).toEqual(denied('role "user" does not have permission to select column "body"', '$.args.distinct[0]'));
    expect(await q('select', { table: 'article', columns: ['id', { name: 'author', columns: ['name'] }] }, as('reader'))).toEqual(
      denied('role "reader" does not have permission to read relationship "author"; no permission on table "author"', '$.args.columns[1]'),
    );
  });

  it('an inherited role reads a column only where a parent granting it lets the row through', async () => {
    expect((await fx.engine.metadata({ type: 'add_inherited_role', args: { role_name: 'both', role_set: ['user', 'reader'] } }, ADMIN)).status).toBe(200);
    const both = (args: object) => q('select', { table: 'article', ...args }, as('both', '1'));
    expect((await both({ columns: ['id', 'published'], where: { id: { $in: [1, 2] } }, order_by: 'id' })).body).toEqual([
      { id: 1, published: true },
      { id: 2, published: null },
    ]);
    // Filtering cannot reveal the hidden value either.
    expect((await both({ columns: ['id'], where: { published: false } })).body).toEqual([]);
  });

  it('refuses a filter whose session variable the request does not carry', async () => {
    const r = await q('select', { table: 'author', columns: ['id'] }, as('user'));
    expect(r).toEqual({ status: 400, body: { path: '$.args', error: '"x-service-user-id" header is expected but not found', code: 'not-found' } });
  });
});

describe('insert', () => {
  it('inserts permitted columns, fills the presets and returns selectable columns', async () => {
    const r = await user('insert', { table: 'article', objects: [{ title: 'New', body: 'x', author_id: 3 }], returning: ['id', 'title', 'published'] });
    expect(r).toEqual({ status: 200, body: { affected_rows: 1, returning: [{ id: 101, title: 'New', published: true }] } });
    expect((await articles()).at(-1)).toEqual({ id: 101, title: 'New', author_id: 3, created_by: '1' });
  });

  it('refuses a row failing the check, a column it does not grant or presets, and writes nothing', async () => {
    const before = await articles();
    // Bob (author 2) is not user 1's.
    const failed = await user('insert', { table: 'article', objects: [{ title: 'Mine', author_id: 1 }, { title: 'Not mine', author_id: 2 }] });
    expect(failed).toEqual({ status: 400, body: { path: '$.args', error: 'check constraint of an insert/update permission has failed', code: 'permission-error' } });
    expect(await user('insert', { table: 'article', objects: [{ title: 'T', published: false }] })).toEqual(
      denied('role "user" does not have permission to insert column "published"', '$.args.objects[0].published'),
    );
    expect(await user('insert', { table: 'article', objects: [{ title: 'T', created_by: '7' }] })).toEqual({
      status: 400,
      body: { path: '$.args.objects[0].created_by', error: 'column "created_by" is not insertable for role "user"', code: 'not-supported' },
    });
    expect(await user('insert', { table: 'article', objects: [{ title: 'T', author_id: 1 }], returning: ['body'] })).toEqual(denied('role "user" does not have permission to select column "body"', '$.args.returning[0]'));
    expect(await q('insert', { table: 'article', objects: [{ title: 'T' }] }, as('reader'))).toEqual(denied('insert on "article" for role "reader" is not allowed. '));
    // An upsert updates through the update permission, which does not grant author_id.
    expect(await user('insert', { table: 'article', objects: [{ title: 'T', author_id: 1 }], on_conflict: { constraint: 'article_pkey', action: 'update' } })).toEqual(
      denied('role "user" does not have permission to update column "author_id"', '$.args.on_conflict'),
    );
    expect(await user('insert', { table: 'article', objects: [{ title: 'T', author_id: 1 }], on_conflict: { constraint: 'article_pkey', action: 'ignore' } }, '1')).toEqual({ status: 200, body: { affected_rows: 1 } });
    expect((await articles()).length).toBe(before.length + 1);
    await q('delete', { table: 'article', where: { title: 'T' } });
    expect(await articles()).toEqual(before);
  });

  it('refuses a preset whose session variable the request does not carry', async () => {
    expect((await q('insert', { table: 'article', objects: [{ title: 'T', author_id: 1 }] }, as('user'))).body).toEqual({
      path: '$.args',
      error: '"x-service-user-id" header is expected but not found',
      code: 'not-found',
    });
  });
});

describe('update and delete', () => {
  it('updates the rows the filter lets through, with the presets', async () => {
    const r = await user('update', { table: 'article', where: { title: { $like: '%1' } }, $set: { body: 'edited' }, returning: ['id'] }, '2');
    expect(r.body).toEqual({ affected_rows: 1, returning: [{ id: 3 }] });
    const b1 = (await q('select', { table: 'article', columns: ['body', 'created_by'], where: { id: 3 } })).body;
    expect(b1).toEqual([{ body: 'edited', created_by: '2' }]);
  });

  it('refuses a change failing the check, columns it does not grant, presets, and writes nothing', async () => {
    const before = await articles();
    expect(await user('update', { table: 'article', where: {}, $set: { title: 'forbidden' } })).toEqual({
      status: 400,
      body: { path: '$.args', error: 'check constraint of an insert/update permission has failed', code: 'permission-error' },
    });
    expect(await user('update', { table: 'article', where: {}, $set: { author_id: 2 } })).toEqual(denied('role "user" does not have permission to update column "author_id"', '$.args["$set"].author_id'));
    expect((await user('update', { table: 'article', where: {}, $set: { created_by: 'x' } })).body).toEqual({
      path: '$.args["$set"].created_by',
      error: 'column "created_by" is not updatable for role "user"; its value is predefined in permission',
      code: 'not-supported',
    });
    expect(await user('update', { table: 'article', where: { body: 'b1' }, $set: { title: 'x' } })).toEqual(denied('role "user" does not have permission to select column "body"', '$.args.where'));
    expect(await q('update', { table: 'article', where: {}, $set: { title: 'x' } }, as('reader'))).toEqual(denied('update on "article" for role "reader" is not allowed. '));
    expect(await articles()).toEqual(before);
  });

  it('deletes the rows the filter lets through; a role without delete permission deletes nothing', async () => {
    expect(await q('delete', { table: 'article', where: {} }, as('reader'))).toEqual(denied('delete on "article" for role "reader" is not allowed. '));
    expect((await user('delete', { table: 'article', where: {}, returning: ['id', 'title'] }, '2')).body).toEqual({ affected_rows: 1, returning: [{ id: 3, title: 'B1' }] });
    expect((await articles()).map((a: { id: number }) => a.id)).toEqual([1, 2, 4, 5, 101]);
  });
});
