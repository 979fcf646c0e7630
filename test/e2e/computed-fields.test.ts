import { beforeAll, describe, expect, it } from 'vitest';
import { useEngine } from '../support/fixture.js';

const fx = useEngine();

beforeAll(async () => {
  await fx.db.sql(`
    CREATE TABLE author (id serial PRIMARY KEY, first_name text NOT NULL, last_name text);
    CREATE TABLE article (id serial PRIMARY KEY, title text, author_id integer REFERENCES author(id));
    CREATE FUNCTION full_name(author) RETURNS text AS $$ SELECT $1.first_name || ' ' || $1.last_name $$ LANGUAGE sql STABLE;
    COMMENT ON FUNCTION full_name(author) IS 'first and last';
    CREATE FUNCTION fetch_articles(search text, author_row author) RETURNS SETOF article AS $$
      SELECT * FROM article WHERE author_id = author_row.id AND title ILIKE '%' || search || '%' $$ LANGUAGE sql STABLE;
    CREATE FUNCTION volatile_name(author) RETURNS text AS $$ SELECT 'x' $$ LANGUAGE sql VOLATILE;
    CREATE FUNCTION no_args() RETURNS text AS $$ SELECT 'x' $$ LANGUAGE sql STABLE;
    CREATE FUNCTION text_first(t text, a author) RETURNS text AS $$ SELECT t $$ LANGUAGE sql STABLE;
    CREATE FUNCTION with_session(author_row author, session json) RETURNS text AS $$ SELECT session->>'x-service-role' $$ LANGUAGE sql STABLE;
    CREATE FUNCTION overloaded(author) RETURNS text AS $$ SELECT 'a' $$ LANGUAGE sql STABLE;
    CREATE FUNCTION overloaded(author, integer) RETURNS text AS $$ SELECT 'b' $$ LANGUAGE sql STABLE;
  `);
  for (const table of ['author', 'article']) await meta('pg_track_table', { table });
});

const meta = (type: string, args: unknown) => fx.engine.metadata({ type, args });
const fields = async () => (await meta('export_metadata', {})).body.sources[0].tables.find((t: any) => t.table.name === 'author').computed_fields;
const add = (name: string, definition: unknown, extra: Record<string, unknown> = {}) => meta('pg_add_computed_field', { table: 'author', name, definition, ...extra });

describe('pg_add_computed_field', () => {
  it('adds a scalar field; the function is stored as {schema, name}', async () => {
    expect(await add('full_name', { function: 'full_name' }, { comment: 'the name' })).toEqual({ status: 200, body: { message: 'success' } });
    expect(await fields()).toEqual([{ name: 'full_name', definition: { function: { schema: 'public', name: 'full_name' } }, comment: 'the name' }]);
  });

  it('adds a set-returning field with a named table argument, and one with a session argument', async () => {
    expect((await add('get_articles', { function: { schema: 'public', name: 'fetch_articles' }, table_argument: 'author_row' })).status).toBe(200);
    expect((await add('role', { function: 'with_session', session_argument: 'session' })).status).toBe(200);
    expect((await fields()).map((f: any) => f.name)).toEqual(['full_name', 'get_articles', 'role']);
  });

  it('explains why a function does not fit', async () => {
    const cases: [unknown, string][] = [
      [{ function: 'nope' }, 'no such function exists: "nope"'],
      [{ function: 'overloaded' }, 'function "overloaded" is overloaded. Overloaded functions are not supported'],
      [{ function: 'no_args' }, 'the computed field "x" cannot be added to table "author" because the function "no_args" has no input arguments'],
      [{ function: 'full_name', table_argument: 'nope' }, 'the computed field "x" cannot be added to table "author" because "nope" is not an input argument of the function "full_name"'],
      [
        { function: 'volatile_name' },
        'the computed field "x" cannot be added to table "author" because the function "volatile_name" is of type VOLATILE; cannot be added as a computed field',
      ],
      [
        { function: 'text_first' },
        'the computed field "x" cannot be added to table "author" for the following reasons:\n' +
          '  • first argument of the function "text_first" is not COMPOSITE type\n' +
          '  • first argument of the function "text_first" of type "pg_catalog.text" is not the table to which the computed field is being added\n',
      ],
      [{ function: 'full_name', session_argument: 'nope' }, 'the computed field "x" cannot be added to table "author" because "nope" is not an input argument of the function "full_name"'],
    ];
    for (const [definition, why] of cases) {
      const r = await add('x', definition);
      expect(r.status).toBe(400);
      expect(r.body.code).toBe('invalid-configuration');
      expect(r.body.error).toBe(`Inconsistent object: in table "author": in computed field "x": ${why}`);
      expect(r.body.internal[0]).toMatchObject({ type: 'computed_field', name: 'computed_field x in table author in source default' });
    }
  });

  it('refuses a name taken by a column, a relationship or another computed field', async () => {
    const column = await add('first_name', { function: 'full_name' });
    expect(column.body.error).toBe('Inconsistent object: field definition conflicts with postgres column');
    const taken = await add('full_name', { function: 'full_name' });
    expect(taken.body).toEqual({ path: '$.args', error: 'field with name "full_name" already exists in table "author"', code: 'already-exists' });
  });

  it('names an untracked table with its path', async () => {
    const r = await meta('pg_add_computed_field', { table: 'random', name: 'x', definition: { function: 'full_name' } });
    expect(r.body).toEqual({ path: '$.args.table', error: 'table "random" does not exist in source: default', code: 'not-exists' });
  });
});

describe('the function changing under the field (run_sql)', () => {
  const sql = (text: string, cascade = false) => fx.engine.query({ type: 'run_sql', args: { sql: text, cascade } });

  it('refuses to make it VOLATILE or overload it', async () => {
    const volatile = await sql('ALTER FUNCTION full_name(author) VOLATILE');
    expect(volatile.body).toEqual({
      path: '$.args',
      error: 'The type of function "full_name" associated with computed field "full_name" of table "author" is being altered to "VOLATILE"',
      code: 'not-supported',
    });
    const overload = await sql("CREATE FUNCTION full_name(author, integer) RETURNS text AS $$ SELECT 'x'::text $$ LANGUAGE sql STABLE");
    expect(overload.body).toEqual({ path: '$.args', error: 'The function "full_name" associated with computed field"full_name" of table "author" is being overloaded', code: 'not-supported' });
  });

  it('refuses to drop or rename it while the field uses it', async () => {
    const renamed = await sql('ALTER FUNCTION full_name(author) RENAME TO whole_name');
    expect(renamed.body).toEqual({ path: '$.args', error: 'cannot drop due to the following dependent objects : computed field author.full_name', code: 'dependency-error' });
    const replaced = await sql("DROP FUNCTION full_name(author); CREATE FUNCTION full_name(a author, n integer DEFAULT 1) RETURNS text AS $$ SELECT 'x'::text $$ LANGUAGE sql STABLE");
    expect(replaced.body.code).toBe('dependency-error');
  });

  it('lets the body be replaced, and drops the field with cascade', async () => {
    const body = await sql("CREATE OR REPLACE FUNCTION full_name(author) RETURNS text AS $$ SELECT $1.first_name $$ LANGUAGE sql STABLE");
    expect(body.status).toBe(200);
    const dropped = await sql('DROP FUNCTION full_name(author)', true);
    expect(dropped.status).toBe(200);
    expect((await fields()).map((f: any) => f.name)).toEqual(['get_articles', 'role']);
  });
});

describe('pg_drop_computed_field', () => {
  it('fails while a permission uses the field, cascades when asked', async () => {
    await fx.db.sql(`CREATE FUNCTION initials(author) RETURNS text AS $$ SELECT left($1.first_name, 1) $$ LANGUAGE sql STABLE`);
    expect((await add('initials', { function: 'initials' })).status).toBe(200);
    expect((await meta('pg_create_select_permission', { table: 'author', role: 'user', permission: { columns: ['id'], computed_fields: ['initials'], filter: { initials: { _eq: 'A' } } } })).status).toBe(200);
    const refused = await meta('pg_drop_computed_field', { table: 'author', name: 'initials' });
    expect(refused.body).toEqual({ path: '$.args', error: 'cannot drop due to the following dependent objects : permission author.user.select', code: 'dependency-error' });
    expect((await meta('pg_drop_computed_field', { table: 'author', name: 'initials', cascade: true })).status).toBe(200);
    const author = (await meta('export_metadata', {})).body.sources[0].tables.find((t: any) => t.table.name === 'author');
    expect(author.select_permissions).toBeUndefined();
  });

  it('names a missing field or table with its path', async () => {
    expect((await meta('pg_drop_computed_field', { table: 'author', name: 'nope' })).body).toEqual({ path: '$.args.name', error: 'computed field "nope" does not exist', code: 'not-exists' });
    expect((await fx.engine.query({ type: 'drop_computed_field', args: { table: 'random', name: 'x' } })).body).toEqual({
      path: '$.args.table',
      error: 'table "random" does not exist in source: default',
      code: 'not-exists',
    });
  });
});

describe('row arguments in queries', () => {
  it('calls a function whose row argument is not its first one by name, with the session argument', async () => {
    await fx.db.sql(`
      INSERT INTO author (first_name, last_name) VALUES ('Ada', 'L');
      CREATE FUNCTION session_last(session json, author_row author) RETURNS text AS $$ SELECT author_row.first_name || ':' || (session->>'x-service-role') $$ LANGUAGE sql STABLE;
      CREATE FUNCTION session_rows(session json, author_row author) RETURNS SETOF article AS $$ SELECT * FROM article WHERE author_id = author_row.id $$ LANGUAGE sql STABLE;
    `);
    expect((await add('tagged', { function: 'session_last', table_argument: 'author_row', session_argument: 'session' })).status).toBe(200);
    expect((await add('own_articles', { function: 'session_rows', table_argument: 'author_row', session_argument: 'session' })).status).toBe(200);
    await fx.db.sql(`INSERT INTO article (title, author_id) SELECT 'T', id FROM author WHERE first_name = 'Ada'`);
    const r = await fx.engine.post('/v1/graphql', { query: `{ author(where: {first_name: {_eq: "Ada"}, own_articles: {title: {_eq: "T"}}}) { tagged own_articles { title } } }` });
    expect(r.body).toEqual({ data: { author: [{ tagged: 'Ada:admin', own_articles: [{ title: 'T' }] }] } });
  });

  it('serves a tracked function with a row argument as a root field, the row given as text (<type>_scalar)', async () => {
    expect((await meta('pg_track_function', { function: 'fetch_articles' })).status).toBe(200);
    const r = await fx.engine.post('/v1/graphql', { query: `{ fetch_articles(args: {search: "t", author_row: "(1,'Ada','L')"}) { title } }` });
    expect(r.body).toEqual({ data: { fetch_articles: [{ title: 'T' }] } });
    const t = await fx.engine.post('/v1/graphql', { query: '{ __type(name: "fetch_articles_args") { inputFields { name type { name } } } }' });
    // Sorted by name, as introspection lists are.
    expect(t.body.data.__type.inputFields).toEqual([
      { name: 'author_row', type: { name: 'author_scalar' } },
      { name: 'search', type: { name: 'String' } },
    ]);
  });

  it('gives a function tracked and used by a computed field one <fn>_args, with the row argument, whichever field a query reads first', async () => {
    expect((await add('matching_articles', { function: 'fetch_articles', table_argument: 'author_row' })).status).toBe(200);
    // The new schema's first query reads the computed field, the next one the root field.
    const computed = await fx.engine.post('/v1/graphql', { query: '{ author(where: {first_name: {_eq: "Ada"}}) { matching_articles(args: {search: "T"}) { title } } }' });
    expect(computed.body).toEqual({ data: { author: [{ matching_articles: [{ title: 'T' }] }] } });
    const root = await fx.engine.post('/v1/graphql', { query: `{ fetch_articles(args: {search: "t", author_row: "(1,'Ada','L')"}) { title } }` });
    expect(root.body).toEqual({ data: { fetch_articles: [{ title: 'T' }] } });
    const t = await fx.engine.post('/v1/graphql', { query: '{ __type(name: "fetch_articles_args") { inputFields { name } } }' });
    expect(t.body.data.__type.inputFields.map((f: { name: string }) => f.name)).toEqual(['author_row', 'search']);
  });

  it("names a column of a tracked table's row type <type>_scalar, not its table's object type name", async () => {
    await fx.db.sql(`CREATE TABLE holder (id int PRIMARY KEY, a author); INSERT INTO holder VALUES (1, ROW(1, 'Ada', 'L'))`);
    expect((await meta('pg_track_table', { table: 'holder' })).status).toBe(200);
    const t = await fx.engine.post('/v1/graphql', { query: '{ __type(name: "holder") { fields { name type { name } } } }' });
    expect(t.body.data.__type.fields).toContainEqual({ name: 'a', type: { name: 'author_scalar' } });
    expect((await fx.engine.post('/v1/graphql', { query: '{ holder { id } author(limit: 1) { first_name } }' })).body).toEqual({ data: { holder: [{ id: 1 }], author: [{ first_name: 'Ada' }] } });
  });
});
