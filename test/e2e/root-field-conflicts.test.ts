/**
 * A change that would give two objects one root field (two tables, a table and a function, two
 * sources, a namespace and a table, a table and an action) is refused with the well-known
 * engine's message, whichever command makes it (track, customization, replace_metadata even
 * with allow_inconsistent_metadata, run_sql, reload_metadata), and nothing is stored: the
 * schema keeps answering the field as before. One name on the query root and on the mutation
 * root, or under a source's namespace, is no conflict.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../support/db.js';
import { useEngine } from '../support/fixture.js';
import { gql } from '../support/graphql.js';
import { RemoteGraphQL } from '../support/remote-graphql.js';

let other: TestDatabase;
const fx = useEngine();

const metadata = (type: string, args: unknown) => fx.engine.metadata({ type, args });
const exported = async () => (await metadata('export_metadata', {})).body;
const conflict = (root: string, fields: string) => `Encountered conflicting definitions in the selection set for '${root}' for ${fields}. Fields must not be defined more than once across all sources.`;

/** The command is refused with `error` (code `unexpected`, at `$.args`) and stores nothing; `a` still answers table a's rows. */
async function refused(type: string, args: unknown, error: string, endpoint = '/v1/metadata') {
  const before = await exported();
  const r = await fx.engine.post(endpoint, { type, args });
  expect(r).toEqual({ status: 400, body: { code: 'unexpected', error, path: '$.args' } });
  expect(await exported()).toEqual(before);
  expect(await gql(fx.engine, '{ a { name } }')).toEqual({ data: { a: [{ name: 'from a' }] } });
}

beforeAll(async () => {
  other = await freshDatabase();
  await other.sql(`CREATE TABLE a (id integer PRIMARY KEY, name text); INSERT INTO a VALUES (1, 'from the other a');`);
  await fx.db.sql(`
    CREATE TABLE a (id integer PRIMARY KEY, name text);
    INSERT INTO a VALUES (1, 'from a');
    CREATE TABLE b (id integer PRIMARY KEY, name text);
    CREATE TABLE nopk (name text);
    CREATE FUNCTION search_a() RETURNS SETOF a AS 'SELECT * FROM a' LANGUAGE sql STABLE;
  `);
  for (const table of ['a', 'nopk']) expect((await metadata('pg_track_table', { table })).status).toBe(200);
});

afterAll(async () => {
  await other?.drop();
});

describe('two tables of one source', () => {
  it("refuses a table whose custom root field is another table's", async () => {
    await refused('pg_track_table', { table: 'b', configuration: { custom_root_fields: { select: 'a' } } }, conflict('subscription_root', "field 'a' defined in [table a in source default, table b in source default]"));
  });

  it('refuses a customization that takes a field, on the mutation root first', async () => {
    expect((await metadata('pg_track_table', { table: 'b' })).status).toBe(200);
    await refused('pg_set_table_customization', { table: 'b', configuration: { custom_root_fields: { select_by_pk: 'a_by_pk' } } }, conflict('subscription_root', "field 'a_by_pk' defined in [table a in source default, table b in source default]"));
    await refused('pg_set_table_customization', { table: 'b', configuration: { custom_root_fields: { insert: 'insert_a', select: 'a' } } }, conflict('mutation_root', "field 'insert_a' defined in [table a in source default, table b in source default]"));
    // A custom name giving b the identifier `a`: every field of a's.
    const r = await metadata('pg_set_table_customization', { table: 'b', configuration: { custom_name: 'a' } });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(/^Encountered conflicting definitions in the selection set for 'mutation_root' for fields: \['insert_a' defined in \[table a in source default, table b in source default\], 'insert_a_one' defined in/);
  });

  it("refuses a table's custom root field named as another of its own fields", async () => {
    await refused('pg_set_table_customization', { table: 'b', configuration: { custom_root_fields: { select: 'b_aggregate' } } }, conflict('subscription_root', "field 'b_aggregate' defined in [table b in source default]"));
    const r = await metadata('pg_set_table_customization', { table: 'b', configuration: { custom_root_fields: { select: 'x', select_aggregate: 'x', insert: 'y', delete: 'y' } } });
    expect(r).toEqual({ status: 400, body: { code: 'parse-failed', error: 'the following custom root field names are duplicated: x and y', path: '$.args.configuration.custom_root_fields' } });
  });

  it('takes a name of the query root for the mutation root, and a field of a table without a primary key', async () => {
    expect((await metadata('pg_set_table_customization', { table: 'b', configuration: { custom_root_fields: { insert: 'a', select_by_pk: 'nopk_by_pk' } } })).status).toBe(200);
    const r = await gql(fx.engine, 'mutation { a(objects: [{id: 1, name: "b one"}]) { affected_rows } }');
    expect(r).toEqual({ data: { a: { affected_rows: 1 } } });
    expect(await gql(fx.engine, '{ a { name } nopk_by_pk(id: 1) { name } }')).toEqual({ data: { a: [{ name: 'from a' }], nopk_by_pk: { name: 'b one' } } });
  });

  it('refuses the primary key that would give a table a field another has (run_sql rolled back, reload_metadata refused)', async () => {
    const error = conflict('subscription_root', "field 'nopk_by_pk' defined in [table nopk in source default, table b in source default]");
    await refused('run_sql', { sql: 'ALTER TABLE nopk ADD COLUMN id serial PRIMARY KEY' }, error, '/v2/query');
    expect((await fx.db.sql(`SELECT count(*)::int AS n FROM information_schema.columns WHERE table_name = 'nopk' AND column_name = 'id'`)).rows[0]).toEqual({ n: 0 });
    await fx.db.sql('ALTER TABLE nopk ADD COLUMN id serial PRIMARY KEY');
    try {
      await refused('reload_metadata', {}, error);
    } finally {
      await fx.db.sql('ALTER TABLE nopk DROP COLUMN id');
    }
    expect((await metadata('reload_metadata', {})).status).toBe(200);
  });
});

describe('functions, sources, namespaces, actions, remote schemas', () => {
  it('refuses a function named as a table, listing every field both define', async () => {
    const both = '[table a in source default, function search_a in source default]';
    await refused('pg_track_function', { function: 'search_a', configuration: { custom_name: 'a' } }, conflict('subscription_root', `fields: ['a' defined in ${both}, 'a_aggregate' defined in ${both}]`));
    // Its own two fields named alike: refused when the configuration is read, the names quoted as upstream quotes a function's.
    const r = await metadata('pg_track_function', { function: 'search_a', configuration: { custom_root_fields: { function: 'f', function_aggregate: 'f' } } });
    expect(r).toEqual({ status: 400, body: { code: 'parse-failed', error: 'the following custom root field names are duplicated: "f" and "f"', path: '$.args.configuration.custom_root_fields' } });
    expect((await metadata('pg_track_function', { function: 'search_a' })).status).toBe(200);
  });

  it("refuses a table of another source taking a table's fields, and takes it under a namespace", async () => {
    const configuration = { connection_info: { database_url: other.url } };
    expect((await metadata('pg_add_source', { name: 'pg2', configuration })).status).toBe(200);
    const r = await metadata('pg_track_table', { source: 'pg2', table: 'a' });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(/^Encountered conflicting definitions in the selection set for 'mutation_root' for fields: \['insert_a' defined in \[table a in source default, table a in source pg2\]/);
    expect((await metadata('pg_update_source', { name: 'pg2', configuration, customization: { root_fields: { namespace: 'ns' } } })).status).toBe(200);
    expect((await metadata('pg_track_table', { source: 'pg2', table: 'a' })).status).toBe(200);
    expect(await gql(fx.engine, '{ a { name } ns { a { name } } }')).toEqual({ data: { a: [{ name: 'from a' }], ns: { a: [{ name: 'from the other a' }] } } });
  });

  it("refuses a namespace that is a table's field, and a second source with the same namespace", async () => {
    const configuration = { connection_info: { database_url: other.url } };
    expect((await metadata('pg_add_source', { name: 'pg3', configuration, customization: { root_fields: { namespace: 'a' } } })).status).toBe(200);
    // b's insert is named `a` (above): the mutation root is checked first.
    await refused('pg_track_table', { source: 'pg3', table: 'a' }, conflict('mutation_root', "field 'a' defined in [table b in source default, source pg3]"));
    expect((await metadata('pg_update_source', { name: 'pg3', configuration, customization: { root_fields: { namespace: 'ns' } } })).status).toBe(200);
    await refused('pg_track_table', { source: 'pg3', table: 'a' }, conflict('mutation_root', "field 'ns' defined in [source pg2, source pg3]"));
    expect((await metadata('pg_drop_source', { name: 'pg3' })).status).toBe(200);
  });

  it('refuses an action named as a field of a table', async () => {
    const action = (type: 'query' | 'mutation', name: string) => ({ name, definition: { type, handler: 'http://127.0.0.1:9/none', output_type: 'String' } });
    await refused('create_action', action('query', 'a'), conflict('query_root', "field 'a' defined in [table a in source default, action a]"));
    await refused('create_action', action('mutation', 'insert_a_one'), conflict('mutation_root', "field 'insert_a_one' defined in [table a in source default, action insert_a_one]"));
    expect((await metadata('create_action', action('mutation', 'a_by_pk'))).status).toBe(200);
  });

  it('refuses a document with a conflict at replace_metadata, allow_inconsistent_metadata or not', async () => {
    const document = await exported();
    const b = document.sources[0].tables.find((t: any) => t.table.name === 'b');
    b.configuration = { custom_root_fields: { select: 'a' } };
    const error = conflict('subscription_root', "field 'a' defined in [table a in source default, table b in source default]");
    await refused('replace_metadata', document, error);
    await refused('replace_metadata', { allow_inconsistent_metadata: true, metadata: document }, error);
  });

  it('leaves a remote schema taking a field inconsistent, as before', async () => {
    const remote = new RemoteGraphQL('type Query { a: String }', { a: () => 'remote' });
    await remote.start();
    try {
      const before = await exported();
      const r = await metadata('add_remote_schema', { name: 'clash', definition: { url: remote.url } });
      expect(r.status).toBe(400);
      expect(r.body.code).toBe('invalid-configuration');
      expect(r.body.error).toBe("Inconsistent object: Field cannot be overwritten by remote field 'a'");
      expect(await exported()).toEqual(before);
      const namespaced = await metadata('add_remote_schema', { name: 'fine', definition: { url: remote.url, customization: { root_fields_namespace: 'remote' } } });
      expect(namespaced.status).toBe(200);
      expect(await gql(fx.engine, '{ a { name } remote { a } }')).toEqual({ data: { a: [{ name: 'from a' }], remote: { a: 'remote' } } });
    } finally {
      await metadata('remove_remote_schema', { name: 'fine' });
      await remote.stop();
    }
  });
});
