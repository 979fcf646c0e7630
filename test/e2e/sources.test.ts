import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../support/db.js';
import { startEngine, type Engine } from '../support/engine.js';

// The engine sees a second database through an environment variable, as `{from_env}` sources do.
let db: TestDatabase;
let other: TestDatabase;
let engine: Engine;
const env = () => ({ SERVICE_GRAPHQL_DATABASE_URL: db.url, OTHER_DB_URL: other.url });

beforeAll(async () => {
  db = await freshDatabase();
  other = await freshDatabase();
  await other.sql('CREATE TABLE book (id serial PRIMARY KEY, title text)');
  engine = await startEngine(env());
});

afterAll(async () => {
  await engine?.stop();
  await db?.drop();
  await other?.drop();
});

const fromEnv = (name = 'OTHER_DB_URL') => ({ connection_info: { database_url: { from_env: name } } });
const exported = async () => (await engine.metadata({ type: 'export_metadata', args: {} })).body;
const source = async (name: string) => (await exported()).sources.find((s: any) => s.name === name);

describe('pg_add_source', () => {
  it('adds a source, storing the configuration with its defaults', async () => {
    const r = await engine.metadata({ type: 'pg_add_source', args: { name: 'other', configuration: fromEnv() } });
    expect(r).toEqual({ status: 200, body: { message: 'success' } });
    expect(await source('other')).toEqual({
      name: 'other',
      kind: 'postgres',
      tables: [],
      configuration: { connection_info: { database_url: { from_env: 'OTHER_DB_URL' }, isolation_level: 'read-committed', use_prepared_statements: false } },
    });
  });

  it('refuses a second source with the same name', async () => {
    const r = await engine.metadata({ type: 'pg_add_source', args: { name: 'other', configuration: fromEnv() } });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ path: '$.args', error: 'source with name "other" already exists', code: 'already-exists' });
  });

  it('replaces the configuration and customization with replace_configuration', async () => {
    const configuration = { connection_info: { database_url: { from_env: 'OTHER_DB_URL' }, pool_settings: { max_connections: 5 } } };
    const customization = { root_fields: { namespace: 'other_ns' } };
    const r = await engine.metadata({ type: 'pg_add_source', args: { name: 'other', configuration, replace_configuration: true, customization } });
    expect(r.status).toBe(200);
    const s = await source('other');
    expect(s.configuration.connection_info.pool_settings).toEqual({ max_connections: 5 });
    expect(s.customization).toEqual(customization);
  });

  it('names a missing environment variable and changes nothing', async () => {
    const before = await engine.metadata({ type: 'export_metadata', version: 2, args: {} });
    const r = await engine.metadata({ type: 'pg_add_source', args: { name: 'broken', configuration: fromEnv('NO_SUCH_VARIABLE') } });
    expect(r.status).toBe(400);
    expect(r.body.error).toContain('"NO_SUCH_VARIABLE"');
    expect(r.body.internal[0]).toMatchObject({ type: 'source', name: 'source broken' });
    const after = await engine.metadata({ type: 'export_metadata', version: 2, args: {} });
    expect(after.body).toEqual(before.body);
  });

  it('refuses an unreachable database', async () => {
    const configuration = { connection_info: { database_url: 'postgres://postgres:postgres@127.0.0.1:1/nowhere' } };
    const r = await engine.metadata({ type: 'pg_add_source', args: { name: 'far', configuration } });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('invalid-configuration');
    expect(r.body.error).toContain('"far"');
  });

  it('validates the configuration with the path of the bad value', async () => {
    const r = await engine.metadata({
      type: 'pg_add_source',
      args: { name: 'x', configuration: { connection_info: { database_url: 'postgres://h/db', isolation_level: 'dirty' } } },
    });
    expect(r.status).toBe(400);
    expect(r.body.path).toBe('$.args.configuration.connection_info.isolation_level');
  });

  it('tracks a table of the new source', async () => {
    const r = await engine.metadata({ type: 'pg_track_table', args: { source: 'other', table: 'book' } });
    expect(r.status).toBe(200);
    expect((await source('other')).tables).toEqual([{ table: { schema: 'public', name: 'book' } }]);
  });
});

describe('pg_update_source', () => {
  it('changes the configuration and keeps the customization', async () => {
    const configuration = { connection_info: { database_url: { from_env: 'OTHER_DB_URL' }, pool_settings: { max_connections: 7 } } };
    const r = await engine.metadata({ type: 'pg_update_source', args: { name: 'other', configuration } });
    expect(r.status).toBe(200);
    const s = await source('other');
    expect(s.configuration.connection_info.pool_settings.max_connections).toBe(7);
    expect(s.customization).toEqual({ root_fields: { namespace: 'other_ns' } });
    expect(s.tables).toHaveLength(1);
  });

  it('does not bump the resource version when the configuration is the same', async () => {
    const before = (await engine.metadata({ type: 'export_metadata', version: 2, args: {} })).body.resource_version;
    const configuration = { connection_info: { database_url: { from_env: 'OTHER_DB_URL' }, pool_settings: { max_connections: 7 } } };
    expect((await engine.metadata({ type: 'pg_update_source', args: { name: 'other', configuration } })).status).toBe(200);
    const after = (await engine.metadata({ type: 'export_metadata', version: 2, args: {} })).body.resource_version;
    expect(after).toBe(before);
  });

  it('refuses an unknown source', async () => {
    const r = await engine.metadata({ type: 'pg_update_source', args: { name: 'nope', configuration: fromEnv() } });
    expect(r.body).toEqual({ path: '$.args', error: 'source with name "nope" does not exist', code: 'not-exists' });
  });
});

describe('rename_source', () => {
  it('renames a source, keeping its tables and settings', async () => {
    const r = await engine.metadata({ type: 'rename_source', args: { name: 'other', new_name: 'library' } });
    expect(r.status).toBe(200);
    expect(await source('other')).toBeUndefined();
    const s = await source('library');
    expect(s.tables).toEqual([{ table: { schema: 'public', name: 'book' } }]);
    expect(s.customization).toEqual({ root_fields: { namespace: 'other_ns' } });
  });

  it('refuses a name already taken and an unknown source', async () => {
    const taken = await engine.metadata({ type: 'rename_source', args: { name: 'library', new_name: 'default' } });
    expect(taken.body).toEqual({ path: '$.args', error: 'source with name "default" already exists', code: 'already-exists' });
    const unknown = await engine.metadata({ type: 'rename_source', args: { name: 'nope', new_name: 'x' } });
    expect(unknown.body.code).toBe('not-exists');
  });
});

describe('remote relationships to another source', () => {
  it("takes the well-known engine's first form (remote_source beside name) and stores it as to_source", async () => {
    await db.sql('CREATE TABLE loan (id serial PRIMARY KEY, book_id integer)');
    expect((await engine.metadata({ type: 'pg_track_table', args: { table: 'loan' } })).status).toBe(200);
    const remote_source = { relationship_type: 'object', source: 'library', table: 'book', field_mapping: { book_id: 'id' } };
    const created = await engine.metadata({ type: 'pg_create_remote_relationship', args: { name: 'book', table: 'loan', remote_source } });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const loan = (await source('default')).tables.find((t: any) => t.table.name === 'loan');
    expect(loan.remote_relationships).toEqual([{ name: 'book', definition: { to_source: { ...remote_source, table: { schema: 'public', name: 'book' } } } }]);
    expect((await engine.metadata({ type: 'pg_delete_remote_relationship', args: { name: 'book', table: 'loan' } })).status).toBe(200);
  });
});

describe('pg_drop_source', () => {
  it('refuses while a remote relationship of another source points at it, and cascades when asked', async () => {
    await db.sql('CREATE TABLE reader (id serial PRIMARY KEY, book_id integer)');
    expect((await engine.metadata({ type: 'pg_track_table', args: { table: 'reader' } })).status).toBe(200);
    // A relationship from default.reader into library.book, written into the document.
    const m = await exported();
    m.sources[0].tables.find((t: any) => t.table.name === 'reader').remote_relationships = [
      { name: 'book', definition: { to_source: { source: 'library', table: 'book', relationship_type: 'object', field_mapping: { book_id: 'id' } } } },
    ];
    expect((await engine.metadata({ type: 'replace_metadata', args: m })).status).toBe(200);

    const refused = await engine.metadata({ type: 'pg_drop_source', args: { name: 'library' } });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('dependency-error');
    expect(refused.body.error).toContain('reader.book');
    expect(await source('library')).toBeDefined();

    const dropped = await engine.metadata({ type: 'pg_drop_source', args: { name: 'library', cascade: true } });
    expect(dropped.status).toBe(200);
    expect(await source('library')).toBeUndefined();
    const reader = (await source('default')).tables.find((t: any) => t.table.name === 'reader');
    expect(reader.remote_relationships).toBeUndefined();
  });

  it('refuses an unknown source', async () => {
    const r = await engine.metadata({ type: 'pg_drop_source', args: { name: 'library' } });
    expect(r.body).toEqual({ path: '$.args', error: 'source with name "library" does not exist', code: 'not-exists' });
  });
});

describe('an unreachable source', () => {
  it('makes its objects inconsistent without stopping the engine from booting', async () => {
    expect((await engine.metadata({ type: 'pg_add_source', args: { name: 'other', configuration: fromEnv() } })).status).toBe(200);
    expect((await engine.metadata({ type: 'pg_track_table', args: { source: 'other', table: 'book' } })).status).toBe(200);
    await engine.stop();
    await other.drop();

    engine = await startEngine(env());
    const r = await engine.metadata({ type: 'get_inconsistent_metadata', args: {} });
    expect(r.status).toBe(200);
    expect(r.body.is_consistent).toBe(false);
    expect(r.body.inconsistent_objects).toEqual([expect.objectContaining({ type: 'source', name: 'source other' })]);
    // The metadata is kept as it was; the rest of the engine works.
    expect((await source('other')).tables).toEqual([{ table: { schema: 'public', name: 'book' } }]);
    expect((await engine.runSql('SELECT 1 AS one')).body).toEqual({ result_type: 'TuplesOk', result: [['one'], ['1']] });
  });
});
