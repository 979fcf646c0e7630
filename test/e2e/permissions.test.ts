import { beforeAll, describe, expect, it } from 'vitest';
import { useEngine } from '../support/fixture.js';

const fx = useEngine();

beforeAll(async () => {
  await fx.db.sql(`
    CREATE EXTENSION IF NOT EXISTS ltree;
    CREATE TABLE author (id serial PRIMARY KEY, name text, rating integer, is_active boolean);
    CREATE TABLE article (
      id serial PRIMARY KEY, title text, author_id integer REFERENCES author(id), reviewer_id integer,
      meta jsonb, tags text[], path ltree, created_at timestamptz DEFAULT now(), is_published boolean
    );
    CREATE TABLE audit (id serial PRIMARY KEY, user_id integer, article_id integer);
    CREATE FUNCTION article_length(a article) RETURNS integer AS $$ SELECT length(a.title) $$ LANGUAGE sql STABLE;
  `);
  for (const table of ['author', 'article', 'audit']) await meta('pg_track_table', { table });
  await meta('pg_create_object_relationship', { table: 'article', name: 'author', using: { foreign_key_constraint_on: 'author_id' } });
  await meta('pg_create_array_relationship', { table: 'author', name: 'articles', using: { foreign_key_constraint_on: { table: 'article', column: 'author_id' } } });
  await meta('pg_add_computed_field', { table: 'article', name: 'length', definition: { function: 'article_length' } });
});

const meta = (type: string, args: unknown) => fx.engine.metadata({ type, args });
const entry = async (name: string) => (await meta('export_metadata', {})).body.sources[0].tables.find((t: any) => t.table.name === name);

describe('creating each kind of permission', () => {
  it('insert: check, set, columns, backend_only', async () => {
    const permission = { check: { author_id: 'X-Service-User-Id' }, set: { reviewer_id: 'x-service-user-id' }, columns: ['title', 'author_id'], backend_only: true };
    expect(await meta('pg_create_insert_permission', { table: 'article', role: 'user', permission, comment: 'own articles' })).toEqual({ status: 200, body: { message: 'success' } });
    expect((await entry('article')).insert_permissions).toEqual([{ role: 'user', permission, comment: 'own articles' }]);
  });

  it('select: columns, computed fields, filter, limit, aggregations and root fields; defaults left out', async () => {
    const permission = {
      columns: '*',
      computed_fields: ['length'],
      filter: { $or: [{ is_published: true }, { author_id: { $neq: 'x-service-user-id' } }] },
      limit: 10,
      allow_aggregations: true,
      query_root_fields: ['select', 'select_by_pk'],
      subscription_root_fields: ['select_stream'],
    };
    expect((await meta('pg_create_select_permission', { table: 'article', role: 'user', permission })).status).toBe(200);
    expect((await meta('pg_create_select_permission', { table: 'author', role: 'user', permission: { columns: ['id'], filter: {}, allow_aggregations: false, computed_fields: [] } })).status).toBe(200);
    expect((await entry('article')).select_permissions).toEqual([{ role: 'user', permission }]);
    expect((await entry('author')).select_permissions).toEqual([{ role: 'user', permission: { columns: ['id'], filter: {} } }]);
  });

  it('update: columns, filter, check, set', async () => {
    const permission = { columns: ['title'], filter: { author_id: 'x-service-user-id' }, check: { title: { _is_null: false } }, set: { reviewer_id: 1 } };
    expect((await meta('pg_create_update_permission', { table: 'article', role: 'user', permission })).status).toBe(200);
    expect((await entry('article')).update_permissions).toEqual([{ role: 'user', permission }]);
  });

  it('delete: filter', async () => {
    expect((await meta('pg_create_delete_permission', { table: 'article', role: 'user', permission: { filter: { author: { id: 'x-service-user-id' } } } })).status).toBe(200);
    expect((await entry('article')).delete_permissions).toEqual([{ role: 'user', permission: { filter: { author: { id: 'x-service-user-id' } } } }]);
  });

  it('keeps the permissions of a kind sorted by role, as exported', async () => {
    for (const role of ['zed', 'anne']) await meta('pg_create_delete_permission', { table: 'article', role, permission: { filter: {} } });
    expect((await entry('article')).delete_permissions.map((p: any) => p.role)).toEqual(['anne', 'user', 'zed']);
  });
});

describe('boolean expressions in filters', () => {
  const filters: Record<string, unknown> = {
    comparison: { id: { _eq: 1, _neq: 2, _ne: 3, _gt: 0, _lt: 9, _gte: 1, _lte: 8 } },
    lists: { id: { _in: [1, 2], _nin: 'x-service-banned-ids' } },
    nulls: { title: { _is_null: false } },
    text: { title: { _like: 'a%', _nlike: 'b%', _ilike: 'c%', _nilike: 'd%', _similar: 'e%', _nsimilar: 'f%', _regex: '^g', _iregex: '^h', _nregex: '^i', _niregex: '^j' } },
    jsonb: { meta: { _contains: { a: 1 }, _contained_in: { a: 1, b: 2 }, _has_key: 'a', _has_keys_any: ['a', 'b'], _has_keys_all: ['a'] } },
    arrays: { tags: { _contains: ['x'], _contained_in: '{x,y}' } },
    ltree: { path: { _ancestor: 'a.b', _descendant: 'a', _matches: '*.b' } },
    columns: { reviewer_id: { _ceq: 'author_id', _cne: ['author_id'], _cgt: ['$', 'author_id'], _clt: 'id', _cgte: 'id', _clte: 'id' } },
    relationship: { author: { articles: { is_published: true } } },
    exists: { _exists: { _table: 'audit', _where: { user_id: { _eq: 'X-Service-User-Id' } } } },
    computed: { length: { _gt: 3 } },
    logic: { _and: [{ _not: { id: 1 } }, { $or: [{ id: 2 }, { id: 3 }] }] },
    session: { author_id: 'X-SERVICE-USER-ID' },
  };

  for (const [family, filter] of Object.entries(filters)) {
    it(`accepts ${family}`, async () => {
      const r = await meta('pg_create_select_permission', { table: 'article', role: `r_${family}`, permission: { columns: ['id'], filter } });
      expect(r).toEqual({ status: 200, body: { message: 'success' } });
    });
  }

  it('reports an unknown column, relationship or operator with its path', async () => {
    const column = await meta('pg_create_select_permission', { table: 'article', role: 'bad', permission: { columns: ['id'], filter: { author: { nope: 1 } } } });
    expect(column.body).toEqual({ path: '$.args', error: '"nope" does not exist', code: 'not-exists' });
    const op = await meta('pg_create_select_permission', { table: 'article', role: 'bad', permission: { columns: ['id'], filter: { id: { _near: 1 } } } });
    expect(op.body).toEqual({ path: '$.args', error: 'Unknown operator: _near', code: 'unexpected-payload' });
  });

  it('reports a value of the wrong type for the column', async () => {
    const r = await meta('pg_create_update_permission', { table: 'article', role: 'bad', permission: { columns: ['id'], filter: { $or: [{ is_published: 3 }] } } });
    expect(r.body).toEqual({ path: '$.args.permission.filter["$or"][0].is_published', error: 'parsing Bool failed, expected Boolean, but encountered Number', code: 'parse-failed' });
    const set = await meta('pg_create_insert_permission', { table: 'article', role: 'bad', permission: { check: {}, set: { reviewer_id: true } } });
    expect(set.body).toEqual({ path: '$.args.permission.set.reviewer_id', error: 'parsing Int32 failed, expected Number, but encountered Boolean', code: 'parse-failed' });
  });

  it('reports an operator used on a column type it does not apply to', async () => {
    const r = await meta('pg_create_delete_permission', { table: 'article', role: 'bad', permission: { filter: { id: { _has_key: 'a' } } } });
    expect(r.body).toEqual({ path: '$.args', error: '"id" is of type "integer"; this operator works only on columns of type "jsonb"', code: 'unexpected-payload' });
  });

  it('reports unknown columns in columns and set', async () => {
    const cols = await meta('pg_create_select_permission', { table: 'article', role: 'bad', permission: { columns: ['id', 'nope'], filter: {} } });
    expect(cols.body).toEqual({ path: '$.args', error: 'column "nope" does not exist', code: 'not-exists' });
    const rel = await meta('pg_create_select_permission', { table: 'article', role: 'bad', permission: { columns: ['author'], filter: {} } });
    expect(rel.body.error).toBe('expecting a postgres column; but, "author" is a relationship; permissions for relationships are automatically inferred');
    const set = await meta('pg_create_update_permission', { table: 'article', role: 'bad', permission: { columns: ['id'], filter: {}, set: { nope: 1 } } });
    expect(set.body.path).toBe('$.args');
  });
});

describe('refusals', () => {
  it('refuses a permission for the admin role, as an inconsistent object', async () => {
    const r = await meta('pg_create_select_permission', { table: 'author', role: 'admin', permission: { columns: '*', filter: {} } });
    const reason = 'Inconsistent object: in table "author": in permission for role "admin": cannot define permission for admin role';
    expect(r.body).toEqual({
      path: '$.args',
      error: reason,
      code: 'invalid-configuration',
      internal: [
        {
          type: 'select_permission',
          name: 'select_permission admin in table author in source default',
          definition: { source: 'default', table: { schema: 'public', name: 'author' }, role: 'admin', permission: { columns: '*', filter: {} }, comment: null },
          reason,
        },
      ],
    });
  });

  it('refuses a second permission of a kind for a role', async () => {
    const r = await meta('pg_create_select_permission', { table: 'author', role: 'user', permission: { columns: '*', filter: {} } });
    expect(r.body).toEqual({ path: '$.args', error: 'select permission already defined on table "author" with role "user"', code: 'already-exists' });
  });

  it('refuses malformed permissions with their paths', async () => {
    const missing = await meta('pg_create_update_permission', { table: 'author', role: 'x', permission: { columns: '*' } });
    expect(missing.body).toEqual({ path: '$.args.permission', error: 'key "filter" not found', code: 'parse-failed' });
    const limit = await meta('pg_create_select_permission', { table: 'author', role: 'x', permission: { columns: '*', filter: {}, limit: -1 } });
    expect(limit.body).toEqual({ path: '$.args.permission.limit', error: 'unexpected negative value', code: 'parse-failed' });
    const extra = await meta('pg_create_delete_permission', { table: 'author', role: 'x', permission: { filter: {}, columns: '*' } });
    expect(extra.body.code).toBe('parse-failed');
    const role = await meta('pg_create_delete_permission', { table: 'author', role: '', permission: { filter: {} } });
    expect(role.body).toEqual({ path: '$.args.role', error: 'empty string not allowed', code: 'parse-failed' });
  });
});

describe('comments and drops', () => {
  it('pg_set_permission_comment sets and removes a comment', async () => {
    expect((await meta('pg_set_permission_comment', { table: 'author', role: 'user', type: 'select', comment: 'see ids' })).status).toBe(200);
    expect((await entry('author')).select_permissions[0].comment).toBe('see ids');
    expect((await meta('pg_set_permission_comment', { table: 'author', role: 'user', type: 'select' })).status).toBe(200);
    expect((await entry('author')).select_permissions[0].comment).toBeUndefined();
    const missing = await meta('pg_set_permission_comment', { table: 'author', role: 'nobody', type: 'insert', comment: 'x' });
    expect(missing.body).toEqual({ path: '$.args', error: `'insert' permission on "author" for role "nobody" does not exist`, code: 'permission-denied' });
  });

  it('pg_drop_*_permission removes it, and names a missing one', async () => {
    expect((await meta('pg_drop_select_permission', { table: 'author', role: 'user' })).status).toBe(200);
    expect((await entry('author')).select_permissions).toBeUndefined();
    const missing = await meta('pg_drop_update_permission', { table: 'author', role: 'user' });
    expect(missing.body).toEqual({ path: '$.args', error: 'update permission on "author" for role "user" does not exist', code: 'bad-request' });
  });

  it('works through /v1/query without the prefix', async () => {
    const q = (type: string, args: unknown) => fx.engine.query({ type, args });
    expect((await q('create_insert_permission', { table: 'author', role: 'guest', permission: { check: {}, columns: '*' } })).status).toBe(200);
    expect((await q('set_permission_comment', { table: 'author', role: 'guest', type: 'insert', comment: 'c' })).status).toBe(200);
    expect((await q('drop_insert_permission', { table: 'author', role: 'guest' })).status).toBe(200);
    expect((await q('create_insert_permission', { table: 'author', role: '', permission: { check: {} } })).body).toEqual({ path: '$.role', error: 'empty string not allowed', code: 'parse-failed' });
  });
});
