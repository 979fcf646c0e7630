import { beforeAll, describe, expect, it } from 'vitest';
import { useEngine } from '../support/fixture.js';

const fx = useEngine();

beforeAll(async () => {
  await fx.db.sql(`
    CREATE TABLE author (id serial PRIMARY KEY, name text UNIQUE, remarks text);
    CREATE TABLE article (id serial PRIMARY KEY, title text, author_id integer REFERENCES author(id), published_on timestamp);
    CREATE VIEW author_view AS SELECT id, upper(name) AS name FROM author;
    CREATE TABLE edition (isbn text, lang text, title text, PRIMARY KEY (isbn, lang));
    CREATE TABLE translation (id serial PRIMARY KEY, isbn text, lang text, FOREIGN KEY (isbn, lang) REFERENCES edition (isbn, lang));
    CREATE SCHEMA other;
    CREATE TABLE other.resident (id serial PRIMARY KEY, name text);
    CREATE TABLE other.address (id serial PRIMARY KEY, resident_id integer REFERENCES other.resident(id));
    CREATE TABLE untracked (id serial PRIMARY KEY);
  `);
  const tables = ['author', 'article', 'author_view', 'edition', 'translation', { schema: 'other', name: 'resident' }, { schema: 'other', name: 'address' }];
  for (const table of tables) expect((await meta('pg_track_table', { table })).status).toBe(200);
});

const meta = (type: string, args: unknown) => fx.engine.metadata({ type, args });
const entry = async (name: string, schema = 'public') => {
  const m = (await meta('export_metadata', {})).body;
  return m.sources[0].tables.find((t: any) => t.table.name === name && t.table.schema === schema);
};

describe('pg_create_object_relationship', () => {
  it('takes a foreign key column of the table, stored as a string', async () => {
    const r = await meta('pg_create_object_relationship', { table: 'article', name: 'author', using: { foreign_key_constraint_on: 'author_id' }, comment: 'the writer' });
    expect(r).toEqual({ status: 200, body: { message: 'success' } });
    expect((await entry('article')).object_relationships).toEqual([{ name: 'author', using: { foreign_key_constraint_on: 'author_id' }, comment: 'the writer' }]);
  });

  it('takes a list of columns (a one-column list is stored as the column)', async () => {
    expect((await meta('pg_create_object_relationship', { table: 'translation', name: 'edition', using: { foreign_key_constraint_on: ['lang', 'isbn'] } })).status).toBe(200);
    expect((await meta('pg_create_object_relationship', { table: 'article', name: 'writer', using: { foreign_key_constraint_on: ['author_id'] } })).status).toBe(200);
    expect((await entry('translation')).object_relationships).toEqual([{ name: 'edition', using: { foreign_key_constraint_on: ['lang', 'isbn'] } }]);
    expect((await entry('article')).object_relationships.map((r: any) => r.using)).toEqual([
      { foreign_key_constraint_on: 'author_id' },
      { foreign_key_constraint_on: 'author_id' },
    ]);
  });

  it('takes a foreign key of another table pointing at this one, {table, columns} or the deprecated {table, column}', async () => {
    const viaColumns = await meta('pg_create_object_relationship', { table: 'edition', name: 'translation', using: { foreign_key_constraint_on: { table: 'translation', columns: ['isbn', 'lang'] } } });
    expect(viaColumns.status).toBe(200);
    const viaColumn = await meta('pg_create_object_relationship', {
      table: { schema: 'other', name: 'resident' },
      name: 'address',
      using: { foreign_key_constraint_on: { table: { schema: 'other', name: 'address' }, column: 'resident_id' } },
    });
    expect(viaColumn.status).toBe(200);
    expect((await entry('resident', 'other')).object_relationships).toEqual([
      { name: 'address', using: { foreign_key_constraint_on: { table: { schema: 'other', name: 'address' }, column: 'resident_id' } } },
    ]);
  });

  it('takes a manual configuration, for views too', async () => {
    const r = await meta('pg_create_object_relationship', {
      table: 'article',
      name: 'author_upper',
      using: { manual_configuration: { remote_table: 'author_view', column_mapping: { author_id: 'id' } } },
    });
    expect(r.status).toBe(200);
    expect((await entry('article')).object_relationships.find((x: any) => x.name === 'author_upper').using).toEqual({
      manual_configuration: { remote_table: { schema: 'public', name: 'author_view' }, column_mapping: { author_id: 'id' } },
    });
  });

  it('fails when no foreign key exists on the columns, listing the inconsistent relationship', async () => {
    const r = await meta('pg_create_object_relationship', { table: 'article', name: 'published', using: { foreign_key_constraint_on: 'published_on' } });
    expect(r.status).toBe(400);
    const reason = 'Inconsistent object: in table "article": in relationship "published": no foreign constraint exists on the given column(s)';
    expect(r.body).toEqual({
      path: '$.args',
      error: reason,
      code: 'invalid-configuration',
      internal: [
        {
          type: 'object_relation',
          name: 'object_relation published in table article in source default',
          definition: { source: 'default', table: { schema: 'public', name: 'article' }, name: 'published', using: { foreign_key_constraint_on: 'published_on' }, comment: null },
          reason,
        },
      ],
    });
  });

  it('fails when the target is not tracked or a mapped column does not exist', async () => {
    const untracked = await meta('pg_create_object_relationship', { table: 'article', name: 'u', using: { manual_configuration: { remote_table: 'untracked', column_mapping: { id: 'id' } } } });
    expect(untracked.body.error).toBe('Inconsistent object: in table "article": in relationship "u": table "untracked" is not tracked');
    const column = await meta('pg_create_object_relationship', { table: 'article', name: 'u', using: { manual_configuration: { remote_table: 'author', column_mapping: { nope: 'id' } } } });
    expect(column.body.error).toBe('Inconsistent object: in table "article": in relationship "u": table "article" has no field named "nope"');
  });

  it('refuses a name already used by a column or a relationship', async () => {
    const column = await meta('pg_create_object_relationship', { table: 'article', name: 'title', using: { foreign_key_constraint_on: 'author_id' } });
    expect(column.body).toEqual({ path: '$.args', error: 'field with name "title" already exists in table "article"', code: 'already-exists' });
    const rel = await meta('pg_create_object_relationship', { table: 'article', name: 'author', using: { foreign_key_constraint_on: 'author_id' } });
    expect(rel.body.code).toBe('already-exists');
  });

  it('refuses malformed arguments with their paths', async () => {
    const none = await meta('pg_create_object_relationship', { table: 'article', name: 'x', using: {} });
    expect(none.body).toEqual({ path: '$.args.using', error: 'atleast one of foreign_key_constraint_on/manual_configuration should be present', code: 'parse-failed' });
    const both = await meta('pg_create_object_relationship', {
      table: 'article',
      name: 'x',
      using: { foreign_key_constraint_on: 'author_id', manual_configuration: { remote_table: 'author', column_mapping: {} } },
    });
    expect(both.body.error).toBe('only one of foreign_key_constraint_on/manual_configuration should be present');
    const empty = await meta('pg_create_object_relationship', { table: 'article', name: '', using: { foreign_key_constraint_on: 'author_id' } });
    expect(empty.body).toEqual({ path: '$.args.name', error: 'empty string not allowed', code: 'parse-failed' });
    const untrackedTable = await meta('pg_create_object_relationship', { table: 'untracked', name: 'x', using: { foreign_key_constraint_on: 'id' } });
    expect(untrackedTable.body).toEqual({ path: '$.args.table', error: 'table "untracked" does not exist in source: default', code: 'not-exists' });
  });
});

describe('pg_create_array_relationship', () => {
  it('takes the foreign key of the other table, stored with a qualified table', async () => {
    const r = await meta('pg_create_array_relationship', { table: 'author', name: 'articles', using: { foreign_key_constraint_on: { table: 'article', column: 'author_id' } } });
    expect(r.status).toBe(200);
    expect((await entry('author')).array_relationships).toEqual([
      { name: 'articles', using: { foreign_key_constraint_on: { table: { schema: 'public', name: 'article' }, column: 'author_id' } } },
    ]);
  });

  it('takes a manual configuration from a view', async () => {
    const r = await meta('pg_create_array_relationship', { table: 'author_view', name: 'articles', using: { manual_configuration: { remote_table: 'article', column_mapping: { id: 'author_id' } } } });
    expect(r.status).toBe(200);
  });

  it('refuses a column that is not a foreign key to this table', async () => {
    const r = await meta('pg_create_array_relationship', { table: 'author', name: 'dated', using: { foreign_key_constraint_on: { table: 'article', column: 'published_on' } } });
    expect(r.body.error).toBe('Inconsistent object: in table "author": in relationship "dated": no foreign constraint exists on the given column(s)');
    const notObject = await meta('pg_create_array_relationship', { table: 'author', name: 'dated', using: { foreign_key_constraint_on: 'id' } });
    expect(notObject.body).toEqual({ path: '$.args.using.foreign_key_constraint_on', error: 'Expecting object { table, columns }.', code: 'parse-failed' });
  });
});

describe('comments, renames and drops', () => {
  it('pg_set_relationship_comment sets and removes the comment (relationship or name)', async () => {
    expect((await meta('pg_set_relationship_comment', { table: 'author', relationship: 'articles', comment: 'written' })).status).toBe(200);
    expect((await entry('author')).array_relationships[0].comment).toBe('written');
    expect((await meta('pg_set_relationship_comment', { table: 'author', name: 'articles', comment: null })).status).toBe(200);
    expect((await entry('author')).array_relationships[0].comment).toBeUndefined();
    const missing = await meta('pg_set_relationship_comment', { table: 'author', relationship: 'nope', comment: 'x' });
    expect(missing.body).toEqual({ path: '$.args', error: 'relationship "nope" does not exist', code: 'not-exists' });
  });

  it('pg_rename_relationship renames it and the permissions that go through it', async () => {
    await meta('pg_create_select_permission', { table: 'article', role: 'user', permission: { columns: '*', filter: { writer: { id: 'x-service-user-id' } } } });
    expect((await meta('pg_rename_relationship', { table: 'article', name: 'writer', new_name: 'penned_by' })).status).toBe(200);
    const article = await entry('article');
    expect(article.object_relationships.map((r: any) => r.name)).toEqual(['author', 'author_upper', 'penned_by']);
    expect(article.select_permissions[0].permission.filter).toEqual({ penned_by: { id: 'x-service-user-id' } });
    const taken = await meta('pg_rename_relationship', { table: 'article', name: 'penned_by', new_name: 'title' });
    expect(taken.body).toEqual({ path: '$.args', error: 'field with name "title" already exists in table "article"', code: 'already-exists' });
  });

  it('pg_drop_relationship fails while a permission uses it, and cascades when asked', async () => {
    const refused = await meta('pg_drop_relationship', { table: 'article', relationship: 'penned_by' });
    expect(refused.body).toEqual({ path: '$.args', error: 'cannot drop due to the following dependent objects : permission article.user.select', code: 'dependency-error' });
    expect((await meta('pg_drop_relationship', { table: 'article', relationship: 'penned_by', cascade: true })).status).toBe(200);
    const article = await entry('article');
    expect(article.select_permissions).toBeUndefined();
    expect(article.object_relationships.map((r: any) => r.name)).toEqual(['author', 'author_upper']);
  });

  it('pg_drop_relationship names a missing relationship', async () => {
    const r = await meta('pg_drop_relationship', { table: 'article', relationship: 'nope' });
    expect(r.body).toEqual({ path: '$.args', error: 'relationship "nope" does not exist', code: 'not-exists' });
  });
});

describe('the deprecated /v1/query forms', () => {
  const q = (type: string, args: unknown) => fx.engine.query({ type, args });

  it('create, rename and drop without a backend prefix, tables as strings', async () => {
    expect((await q('create_array_relationship', { table: 'author', name: 'posts', using: { foreign_key_constraint_on: { table: 'article', column: 'author_id' } } })).status).toBe(200);
    expect((await q('rename_relationship', { table: 'author', name: 'posts', new_name: 'writings' })).status).toBe(200);
    expect((await q('set_relationship_comment', { table: 'author', relationship: 'writings', comment: 'c' })).status).toBe(200);
    expect((await q('drop_relationship', { table: 'author', relationship: 'writings' })).status).toBe(200);
  });

  it('name a badly formed argument without "args"', async () => {
    const r = await q('create_object_relationship', { table: 'article', name: '', using: { foreign_key_constraint_on: 'author_id' } });
    expect(r.body).toEqual({ path: '$.name', error: 'empty string not allowed', code: 'parse-failed' });
  });
});
