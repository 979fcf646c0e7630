import { beforeAll, describe, expect, it } from 'vitest';
import { useEngine } from '../support/fixture.js';

const fx = useEngine();

beforeAll(async () => {
  await fx.db.sql(`
    CREATE SCHEMA other;
    CREATE TABLE author (id serial PRIMARY KEY, name text UNIQUE, tags jsonb, scores integer[], born date);
    CREATE TABLE other.resident (id serial PRIMARY KEY, name text NOT NULL);
    CREATE TABLE missing_later (id int PRIMARY KEY);
  `);
});

const q = (type: string, args: unknown, extra: Record<string, unknown> = {}) => fx.engine.query({ type, args, ...extra });
const exported = async () => (await q('export_metadata', {})).body;

describe('table operations under their unprefixed names', () => {
  it('track_table takes the name alone, {schema, name}, or {table}', async () => {
    expect((await q('track_table', 'author')).body).toEqual({ message: 'success' });
    expect((await q('track_table', { schema: 'other', name: 'resident' })).status).toBe(200);
    expect((await q('track_table', { table: 'missing_later' })).status).toBe(200);
    expect((await exported()).sources[0].tables.map((t: any) => t.table)).toEqual([
      { schema: 'public', name: 'author' },
      { schema: 'other', name: 'resident' },
      { schema: 'public', name: 'missing_later' },
    ]);
  });

  it('set_table_custom_fields sets root fields and column names', async () => {
    const r = await q('set_table_custom_fields', { table: 'author', custom_root_fields: { select: 'writers' }, custom_column_names: { name: 'fullName' } });
    expect(r.status).toBe(200);
    const author = (await exported()).sources[0].tables[0];
    expect(author.configuration).toEqual({ custom_root_fields: { select: 'writers' }, column_config: { name: { custom_name: 'fullName' } } });
  });

  it('refuses backend-prefixed and metadata-only names', async () => {
    const r = await q('pg_track_table', { table: 'author' });
    expect(r.body).toEqual({ path: '$.type', error: 'unknown operation type "pg_track_table" for /v1/query', code: 'not-supported' });
  });
});

describe('metadata management', () => {
  it('get_inconsistent_metadata answers the list alone', async () => {
    await fx.db.sql('DROP TABLE missing_later');
    const reload = await q('reload_metadata', {});
    expect(reload.body.is_consistent).toBe(false);
    const r = await q('get_inconsistent_metadata', {});
    expect(r.body).toEqual([expect.objectContaining({ type: 'table', name: 'table missing_later in source default' })]);
    expect((await q('drop_inconsistent_metadata', {})).body).toEqual({ message: 'success' });
  });

  it('reload_metadata takes only reload_remote_schemas', async () => {
    expect((await q('reload_metadata', { reload_remote_schemas: true })).status).toBe(200);
    expect((await q('reload_metadata', { reload_sources: true })).body.code).toBe('parse-failed');
  });

  it('replace_metadata takes an older document whose tables belong to the default source', async () => {
    const r = await q('replace_metadata', { version: 2, tables: [{ table: 'author' }, { table: { schema: 'other', name: 'resident' } }] });
    expect(r).toEqual({ status: 200, body: { message: 'success' } });
    const m = await exported();
    expect(m.sources.map((s: any) => s.name)).toEqual(['default']);
    expect(m.sources[0].tables).toEqual([{ table: { schema: 'public', name: 'author' } }, { table: { schema: 'other', name: 'resident' } }]);
  });
});

describe('insert', () => {
  it('inserts objects, each column typed by the table, missing ones defaulted', async () => {
    const r = await q('insert', {
      table: 'author',
      objects: [{ name: 'Ann', tags: { likes: ['tea'] }, scores: [1, 2], born: '1990-01-02' }, { name: 'Bob' }],
      returning: ['id', 'name', 'tags', 'scores', 'born'],
    });
    expect(r).toEqual({
      status: 200,
      body: {
        affected_rows: 2,
        returning: [
          { id: 1, name: 'Ann', tags: { likes: ['tea'] }, scores: [1, 2], born: '1990-01-02' },
          { id: 2, name: 'Bob', tags: null, scores: null, born: null },
        ],
      },
    });
  });

  it('reports constraint violations as the well-known engine does', async () => {
    const r = await q('insert', { table: 'author', objects: [{ name: 'Ann' }] });
    expect(r.body).toEqual({ path: '$', error: 'Uniqueness violation. duplicate key value violates unique constraint "author_name_key"', code: 'constraint-violation' });
    const nul = await q('insert', { table: { schema: 'other', name: 'resident' }, objects: [{}] });
    expect(nul.body.code).toBe('constraint-violation');
    expect(nul.body.error).toMatch(/^Not-NULL violation\. /);
  });

  it('ignores or updates on conflict', async () => {
    const ignored = await q('insert', { table: 'author', objects: [{ name: 'Ann' }], on_conflict: { constraint: 'author_name_key', action: 'ignore' } });
    expect(ignored.body).toEqual({ affected_rows: 0 });
    const updated = await q('insert', {
      table: 'author',
      objects: [{ name: 'Ann', born: '1991-01-01' }],
      on_conflict: { constraint: 'author_name_key', action: 'update' },
      returning: ['id', 'born'],
    });
    expect(updated.body).toEqual({ affected_rows: 1, returning: [{ id: 1, born: '1991-01-01' }] });
  });

  it('refuses unknown columns and bad values with their paths', async () => {
    expect((await q('insert', { table: 'author', objects: [{ name: 'C' }, { nope: 1 }] })).body).toEqual({
      path: '$.args.objects[1].nope',
      error: 'column "nope" does not exist',
      code: 'not-exists',
    });
    expect((await q('insert', { table: 'author', objects: [{ born: 'yesterday-ish' }] })).body.code).toBe('data-exception');
  });
});

describe('select and count', () => {
  it('selects columns with where, order_by, limit and offset', async () => {
    await q('insert', { table: 'author', objects: [{ name: 'Cy' }, { name: 'Di', scores: [5] }] });
    const r = await q('select', { table: 'author', columns: ['id', 'name'], where: { $or: [{ name: { $like: '%i' } }, { id: { $in: [1, 2] } }] }, order_by: '-id', limit: 2, offset: 1 });
    expect(r).toEqual({ status: 200, body: [{ id: 2, name: 'Bob' }, { id: 1, name: 'Ann' }] });
    const all = await q('select', { table: 'author', columns: ['*'], where: { scores: { $is_null: false } }, order_by: [{ column: 'id', type: 'asc' }] });
    expect(all.body.map((a: any) => a.name)).toEqual(['Ann', 'Di']);
  });

  it('answers an empty list when nothing matches', async () => {
    expect((await q('select', { table: 'author', columns: ['id'], where: { name: 'Zed' } })).body).toEqual([]);
  });

  it('counts, also distinct values', async () => {
    expect((await q('count', { table: 'author' })).body).toEqual({ count: 4 });
    expect((await q('count', { table: 'author', where: { $not: { name: 'Ann' } } })).body).toEqual({ count: 3 });
    expect((await q('count', { table: 'author', distinct: ['tags'] })).body).toEqual({ count: 2 });
  });

  it('refuses a table that is not tracked, an unknown column, an unknown operator', async () => {
    await fx.db.sql('CREATE TABLE untracked (id int)');
    expect((await q('select', { table: 'untracked', columns: ['id'] })).body).toEqual({ path: '$.args.table', error: 'table "untracked" does not exist', code: 'not-exists' });
    expect((await q('select', { table: 'author', columns: ['id', 'nope'] })).body.path).toBe('$.args.columns[1]');
    expect((await q('select', { table: 'author', columns: ['id'], where: { id: { $near: 1 } } })).body).toMatchObject({ path: '$.args.where.id["$near"]', code: 'unexpected-payload' });
  });
});

describe('update and delete', () => {
  it('updates with $set and $inc and returns the rows', async () => {
    const r = await q('update', { table: 'author', where: { name: 'Bob' }, $set: { born: '2000-02-02' }, $inc: { id: 100 }, returning: ['id', 'born'] });
    expect(r.body).toEqual({ affected_rows: 1, returning: [{ id: 102, born: '2000-02-02' }] });
  });

  it('needs a where and something to set', async () => {
    expect((await q('update', { table: 'author', $set: { name: 'x' } })).body).toEqual({ path: '$', error: 'key "where" not found', code: 'parse-failed' });
    expect((await q('update', { table: 'author', where: {} })).body.code).toBe('parse-failed');
  });

  it('deletes matching rows', async () => {
    expect((await q('delete', { table: 'author', where: { id: { $gt: 100 } }, returning: ['name'] })).body).toEqual({ affected_rows: 1, returning: [{ name: 'Bob' }] });
    expect((await q('count', { table: 'author' })).body).toEqual({ count: 3 });
  });

  it('runs on /v2/query with a source', async () => {
    const r = await fx.engine.post('/v2/query', { type: 'count', args: { source: 'default', table: 'author' } });
    expect(r.body).toEqual({ count: 3 });
  });
});

describe('track_function and untrack_function', () => {
  it('tracks a function returning rows of a tracked table, by name or in the version 2 form', async () => {
    await fx.db.sql(`
      CREATE FUNCTION named(search text) RETURNS SETOF author AS $$ SELECT * FROM author WHERE name = search $$ LANGUAGE sql STABLE;
      CREATE FUNCTION configured(session json) RETURNS SETOF author AS $$ SELECT * FROM author $$ LANGUAGE sql STABLE;
    `);
    expect((await q('track_function', 'named')).body).toEqual({ message: 'success' });
    const v2 = await q('track_function', { function: 'configured', configuration: { session_argument: 'session' } }, { version: 2 });
    expect(v2.status).toBe(200);
    expect((await exported()).sources[0].functions).toEqual([
      { function: { schema: 'public', name: 'named' } },
      { function: { schema: 'public', name: 'configured' }, configuration: { session_argument: 'session' } },
    ]);
  });

  it('refuses a name clash with a tracked table, and a function tracked twice', async () => {
    await fx.db.sql('CREATE FUNCTION author() RETURNS SETOF author AS $$ SELECT * FROM author $$ LANGUAGE sql STABLE');
    expect((await q('track_function', 'author')).body).toEqual({ path: '$.args', error: 'table with name "author" already exists', code: 'not-supported' });
    expect((await q('track_function', 'named')).body).toEqual({ path: '$.args', error: 'function already tracked: "named"', code: 'already-tracked' });
  });

  it('says why a function cannot be tracked', async () => {
    await fx.db.sql(`
      CREATE FUNCTION scalar() RETURNS int AS $$ SELECT 1 $$ LANGUAGE sql STABLE;
      CREATE FUNCTION bad_session(session text) RETURNS SETOF author AS $$ SELECT * FROM author $$ LANGUAGE sql STABLE;
    `);
    const missing = await q('track_function', 'nope');
    expect(missing.body).toMatchObject({ code: 'invalid-configuration', error: 'Inconsistent object: in function "nope": no such function exists: "nope"' });
    const scalar = await q('track_function', 'scalar');
    expect(scalar.body.error).toBe(
      'Inconsistent object: in function "scalar": the function "scalar" cannot be tracked for the following reasons:\n' +
        '  • the function does not return a "COMPOSITE" type\n' +
        '  • the function does not return a table\n',
    );
    const session = await q('track_function', { function: 'bad_session', configuration: { session_argument: 'session' } }, { version: 2 });
    expect(session.body.error).toBe(
      'Inconsistent object: in function "bad_session": the function "bad_session" cannot be tracked because given session argument "session" is not of type json',
    );
  });

  it('untracking the return table needs cascade, which takes the functions along', async () => {
    const refused = await q('untrack_table', { table: 'author' });
    expect(refused.body).toEqual({ path: '$.args', error: 'cannot drop due to the following dependent objects : function named, function configured', code: 'dependency-error' });
    expect((await q('untrack_function', { schema: 'public', name: 'named' })).body).toEqual({ message: 'success' });
    expect((await q('untrack_function', 'named')).body).toEqual({ path: '$.args', error: 'function "named" does not exist in source: default', code: 'not-exists' });
    expect((await q('untrack_table', { table: 'author', cascade: true })).status).toBe(200);
    expect((await exported()).sources[0].functions).toBeUndefined();
  });
});

describe('where through relationships', () => {
  it('filters by a related row', async () => {
    await fx.db.sql(`
      CREATE TABLE book (id serial PRIMARY KEY, title text, author_id integer REFERENCES author(id));
      INSERT INTO author (id, name) VALUES (50, 'Eve');
      INSERT INTO book (title, author_id) VALUES ('One', 50), ('Two', 1);
    `);
    await q('track_table', 'author');
    await q('track_table', 'book');
    expect((await q('create_object_relationship', { table: 'book', name: 'writer', using: { foreign_key_constraint_on: 'author_id' } })).status).toBe(200);
    const r = await q('select', { table: 'book', columns: ['title'], where: { writer: { name: { $eq: 'Eve' } } } });
    expect(r.body).toEqual([{ title: 'One' }]);
    expect((await q('delete', { table: 'book', where: { writer: { id: 1 } } })).body).toEqual({ affected_rows: 1 });
  });

  it('selects related rows: objects, and arrays with where, order_by, limit and offset, nested', async () => {
    await fx.db.sql(`INSERT INTO book (title, author_id) VALUES ('Three', 50), ('Four', 50), ('Orphan', NULL); INSERT INTO author (id, name) VALUES (60, 'Nobody')`);
    expect((await q('create_array_relationship', { table: 'author', name: 'books', using: { foreign_key_constraint_on: { table: 'book', column: 'author_id' } } })).status).toBe(200);
    const books = await q('select', { table: 'book', columns: ['title', { name: 'writer', columns: ['id', 'name'] }], order_by: 'id' });
    expect(books.body).toEqual([
      { title: 'One', writer: { id: 50, name: 'Eve' } },
      { title: 'Three', writer: { id: 50, name: 'Eve' } },
      { title: 'Four', writer: { id: 50, name: 'Eve' } },
      { title: 'Orphan', writer: null },
    ]);
    const eve = await q('select', {
      table: 'author',
      where: { id: 50 },
      columns: ['name', { name: 'books', columns: ['title', { name: 'writer', columns: ['name'] }], where: { title: { $ne: 'One' } }, order_by: '-title', limit: 1, offset: 1 }],
    });
    expect(eve.body).toEqual([{ name: 'Eve', books: [{ title: 'Four', writer: { name: 'Eve' } }] }]);
    expect((await q('select', { table: 'author', where: { id: 60 }, columns: ['id', { name: 'books', columns: ['*'] }] })).body).toEqual([{ id: 60, books: [] }]);
    expect((await q('select', { table: 'book', columns: [{ name: 'nope', columns: ['id'] }] })).body).toEqual({ path: '$.args.columns[0].name', error: 'relationship "nope" does not exist on table "book"', code: 'not-exists' });
    expect((await q('select', { table: 'book', columns: [{ name: 'writer', columns: ['id'], limit: 1 }] })).body).toMatchObject({ path: '$.columns[0]', code: 'parse-failed', error: 'unexpected fields in $.args.columns[0]: limit' });
  });
});
