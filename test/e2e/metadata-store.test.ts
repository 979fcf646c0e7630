/**
 * The stored metadata: a row per table entry beside the document's skeleton, so that a change
 * writes only the entries it touched; a document written whole into the
 * version row (by hand, or by an engine before this layout) is served and split by the next change.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useEngine } from '../support/fixture.js';
import { startEngine } from '../support/engine.js';
import { gql } from '../support/graphql.js';

const fx = useEngine();

/** Each entry row's table name and the transaction that last wrote it (a row is the entry, or [entry, shared bodies]). */
async function entryRows(): Promise<{ name: string; writer: string }[]> {
  const r = await fx.db.sql(
    `SELECT coalesce(entry::json->'table', entry::json->0->'table')->>'name' AS name, xmin::text AS writer FROM service_catalog.metadata_tables WHERE source = 'default' ORDER BY position`,
  );
  return r.rows;
}

const exportTables = async () => (await fx.engine.metadata({ type: 'export_metadata', args: {} })).body.sources[0].tables.map((t: { table: { name: string } }) => t.table.name);

beforeAll(async () => {
  await fx.db.sql('CREATE TABLE a (id int PRIMARY KEY); CREATE TABLE b (id int PRIMARY KEY); CREATE TABLE c (id int PRIMARY KEY); CREATE TABLE d (id int PRIMARY KEY)');
  for (const table of ['a', 'b', 'c']) expect((await fx.engine.metadata({ type: 'pg_track_table', args: { table } })).status).toBe(200);
});

describe('the metadata store', () => {
  it('holds a row per table entry, in the document order', async () => {
    expect((await entryRows()).map((r) => r.name)).toEqual(['a', 'b', 'c']);
    const main = await fx.db.sql('SELECT metadata, skeleton FROM service_catalog.metadata');
    expect(main.rows[0].metadata).toBeNull();
    expect(main.rows[0].skeleton.sources[0].tables).toEqual([]);
  });

  it('a permission change writes that table entry only; a no-op writes nothing', async () => {
    const before = await entryRows();
    const perm = { table: 'b', role: 'user', permission: { columns: ['id'], filter: {} } };
    expect((await fx.engine.metadata({ type: 'pg_create_select_permission', args: perm })).status).toBe(200);
    const after = await entryRows();
    expect(after.map((r) => r.writer !== before.find((b) => b.name === r.name)!.writer)).toEqual([false, true, false]);
    const { resource_version } = (await fx.engine.metadata({ type: 'export_metadata', version: 2, args: {} })).body;
    // Setting the same customization again changes nothing: no write, no new version.
    expect((await fx.engine.metadata({ type: 'pg_set_table_customization', args: { table: 'a', configuration: {} } })).status).toBe(200);
    expect((await fx.engine.metadata({ type: 'export_metadata', version: 2, args: {} })).body.resource_version).toBe(resource_version);
    expect(await entryRows()).toEqual(after);
  });

  it('a change outside the tables (an inherited role) leaves the table rows as they are, across a restart', async () => {
    for (const role of ['user', 'other']) {
      expect((await fx.engine.metadata({ type: 'pg_create_select_permission', args: { table: 'c', role, permission: { columns: ['id'], filter: {} } } })).status).toBe(200);
    }
    const before = await entryRows();
    const added = await fx.engine.metadata({ type: 'add_inherited_role', args: { role_name: 'both', role_set: ['user', 'other'] } });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect(await entryRows()).toEqual(before);
    expect(await fx.engine.stop()).toBe(0);
    fx.engine = await startEngine({ SERVICE_GRAPHQL_DATABASE_URL: fx.db.url });
    expect(await exportTables()).toEqual(['a', 'b', 'c']);
    expect((await fx.engine.metadata({ type: 'drop_inherited_role', args: { role_name: 'both' } })).status).toBe(200);
    expect(await entryRows()).toEqual(before);
  });

  it('untracking removes the row; tracking again appends it', async () => {
    expect((await fx.engine.metadata({ type: 'pg_untrack_table', args: { table: 'a' } })).status).toBe(200);
    expect((await entryRows()).map((r) => r.name)).toEqual(['b', 'c']);
    expect((await fx.engine.metadata({ type: 'pg_track_table', args: { table: 'a' } })).status).toBe(200);
    expect((await entryRows()).map((r) => r.name)).toEqual(['b', 'c', 'a']);
    expect(await exportTables()).toEqual(['b', 'c', 'a']);
  });

  it('a change the store fails to write takes no effect: its snapshot, staged while it was written, is dropped', async () => {
    // The store fails to write an entry naming this role, as a full disk or a lost connection would.
    await fx.db.sql(`CREATE FUNCTION refuse_entry() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF NEW.entry LIKE '%store_refuses%' THEN RAISE EXCEPTION 'refused by the test'; END IF; RETURN NEW; END $$;
      CREATE TRIGGER refuse_entry BEFORE INSERT OR UPDATE ON service_catalog.metadata_tables FOR EACH ROW EXECUTE FUNCTION refuse_entry()`);
    const asRole = (role: string) => gql(fx.engine, '{ a { id } }', undefined, { 'x-service-role': role });
    try {
      const before = await entryRows();
      const refused = await fx.engine.metadata({ type: 'pg_create_select_permission', args: { table: 'a', role: 'store_refuses', permission: { columns: ['id'], filter: {} } } });
      expect([refused.status, refused.body.code, refused.body.internal?.error?.message]).toEqual([400, 'postgres-error', 'refused by the test']);
      expect(await entryRows()).toEqual(before);
      expect((await asRole('store_refuses')).errors?.[0]?.extensions.code).toBe('validation-failed');
      // A snapshot published without being staged first (a reload) is not taken for the dropped one.
      expect((await fx.engine.metadata({ type: 'reload_metadata', args: {} })).status).toBe(200);
      expect((await asRole('store_refuses')).errors?.[0]?.extensions.code).toBe('validation-failed');
    } finally {
      await fx.db.sql('DROP TRIGGER refuse_entry ON service_catalog.metadata_tables; DROP FUNCTION refuse_entry()');
    }
    expect((await fx.engine.metadata({ type: 'pg_create_select_permission', args: { table: 'a', role: 'store_accepts', permission: { columns: ['id'], filter: {} } } })).status).toBe(200);
    expect(await asRole('store_accepts')).toEqual({ data: { a: [] } });
    expect((await asRole('store_refuses')).errors?.[0]?.extensions.code).toBe('validation-failed');
  });

  it('queries follow a long run of changes (partial snapshot updates, and a whole one now and then)', async () => {
    for (let i = 0; i < 105; i++) {
      expect((await fx.engine.metadata({ type: 'pg_set_table_customization', args: { table: 'c', configuration: { custom_name: `c_${i}` } } })).status).toBe(200);
      if (i % 20 !== 4) continue;
      expect(await gql(fx.engine, `{ c_${i} { id } }`)).toEqual({ data: { [`c_${i}`]: [] } });
      expect((await gql(fx.engine, `{ c_${i - 1} { id } }`)).errors?.[0]?.extensions.code).toBe('validation-failed');
    }
  });

  it('serves a document written whole into the version row, and splits it on the next change', async () => {
    const doc = (await fx.engine.metadata({ type: 'export_metadata', args: {} })).body;
    doc.sources[0].tables = [{ table: { schema: 'public', name: 'c' } }, { table: { schema: 'public', name: 'a' } }];
    await fx.db.sql('UPDATE service_catalog.metadata SET metadata = $1, resource_version = resource_version + 1', [JSON.stringify(doc)]);
    expect(await fx.engine.stop()).toBe(0);
    fx.engine = await startEngine({ SERVICE_GRAPHQL_DATABASE_URL: fx.db.url });
    expect(await exportTables()).toEqual(['c', 'a']);
    expect((await fx.engine.metadata({ type: 'pg_track_table', args: { table: 'd' } })).status).toBe(200);
    expect((await entryRows()).map((r) => r.name)).toEqual(['c', 'a', 'd']);
    expect((await fx.db.sql('SELECT metadata FROM service_catalog.metadata')).rows[0].metadata).toBeNull();
    expect(await fx.engine.stop()).toBe(0);
    fx.engine = await startEngine({ SERVICE_GRAPHQL_DATABASE_URL: fx.db.url });
    expect(await exportTables()).toEqual(['c', 'a', 'd']);
  });

  it('keeps entries as text, lz4-compressed where the server has lz4, else uncompressed', async () => {
    const { lz4 } = (await fx.db.sql(`SELECT EXISTS (SELECT 1 FROM pg_settings WHERE name = 'default_toast_compression' AND 'lz4' = ANY (enumvals)) AS lz4`)).rows[0] as { lz4: boolean };
    const column = (await fx.db.sql(
      `SELECT atttypid::regtype::text AS type, attstorage AS storage${lz4 ? ', attcompression AS compression' : ''} FROM pg_attribute WHERE attrelid = 'service_catalog.metadata_tables'::regclass AND attname = 'entry'`,
    )).rows[0];
    expect(column).toEqual(lz4 ? { type: 'text', storage: 'x', compression: 'l' } : { type: 'text', storage: 'e' });
  });

  it('stores a permission body several roles have once, and reads it back for each, across a restart', async () => {
    await fx.db.sql('CREATE TABLE e (id int PRIMARY KEY)');
    const doc = (await fx.engine.metadata({ type: 'export_metadata', args: {} })).body;
    const body = { columns: ['id'], filter: { id: { _eq: 'X-Service-User-Id' } } };
    const e = { table: { schema: 'public', name: 'e' }, select_permissions: ['user', 'other', 'third'].map((role) => ({ role, permission: body })) };
    doc.sources[0].tables = [...doc.sources[0].tables, e];
    const replaced = await fx.engine.metadata({ type: 'replace_metadata', args: doc });
    expect(replaced.status, JSON.stringify(replaced.body)).toBe(200);
    const stored = (await fx.db.sql(`SELECT entry FROM service_catalog.metadata_tables WHERE key = '{"schema":"public","name":"e"}'`)).rows[0].entry as string;
    expect(stored.split('X-Service-User-Id').length).toBe(2);
    expect(JSON.parse(stored)[1]).toEqual({ select_permissions: [0, 0, 0] });
    const exported = (await fx.engine.metadata({ type: 'export_metadata', args: {} })).body;
    expect(exported.sources[0].tables.at(-1).select_permissions.map((p: { role: string }) => p.role)).toEqual(['other', 'third', 'user']);
    expect(await fx.engine.stop()).toBe(0);
    fx.engine = await startEngine({ SERVICE_GRAPHQL_DATABASE_URL: fx.db.url });
    expect((await fx.engine.metadata({ type: 'export_metadata', args: {} })).body).toEqual(exported);
    expect(await gql(fx.engine, '{ e { id } }', undefined, { 'x-service-role': 'third', 'x-service-user-id': '1' })).toEqual({ data: { e: [] } });
  });

  it('stores a document of thousands of tables (written in several statements) in its order, across a restart', async () => {
    const doc = (await fx.engine.metadata({ type: 'export_metadata', args: {} })).body;
    // Tables the database does not have: kept as inconsistent objects, stored all the same.
    const names = Array.from({ length: 4500 }, (_, i) => `missing_${(i * 7919) % 4500}`);
    doc.sources[0].tables = names.map((name) => ({ table: { schema: 'public', name } }));
    const replaced = await fx.engine.metadata({ type: 'replace_metadata', args: { metadata: doc, allow_inconsistent_metadata: true } });
    expect(replaced.status).toBe(200);
    expect((await entryRows()).map((r) => r.name)).toEqual(names);
    expect(await fx.engine.stop()).toBe(0);
    fx.engine = await startEngine({ SERVICE_GRAPHQL_DATABASE_URL: fx.db.url });
    expect(await exportTables()).toEqual(names);
  });
});
