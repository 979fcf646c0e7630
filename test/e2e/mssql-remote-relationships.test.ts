/**
 * Remote relationships on SQL Server and BigQuery sources without their servers (spec "Remote
 * relationship"; the statements are golden tests: test/golden/mssql, test/golden/bigquery):
 * `mssql_create/update/delete_remote_relationship` on a table of an unreachable SQL Server
 * source, to a remote schema and to another source's table, with the errors pg's commands give
 * (paths, nothing stored), a pg table's `to_source` relationship into the unreachable source
 * refused with the reason, and the relationships round-tripping through replace_metadata.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useEngine } from '../support/fixture.js';
import { RemoteGraphQL } from '../support/remote-graphql.js';

const remote = new RemoteGraphQL('type Query { shipment(order: Int!): String }', { shipment: ({ order }: { order: number }) => `s${order}` });
const fx = useEngine({ MSSQL_NOWHERE: 'Server=tcp:127.0.0.1,1;Database=shop;User Id=sa;Password=x;Encrypt=false;Connection Timeout=3' });
const meta = (type: string, args: unknown) => fx.engine.metadata({ type, args });
const exported = async () => (await meta('export_metadata', {})).body;
const unreachable = { connection_info: { connection_string: { from_env: 'MSSQL_NOWHERE' } } };
const shopTable = (doc: any, name: string) => doc.sources.find((s: any) => s.name === 'shop').tables.find((t: any) => t.table.name === name);
const toSchema = { to_remote_schema: { remote_schema: 'shipping', lhs_fields: ['id'], remote_field: { shipment: { arguments: { order: '$id' } } } } };
const toBook = { to_source: { relationship_type: 'object', source: 'default', table: 'book', field_mapping: { book_id: 'id' } } };

beforeAll(async () => {
  await remote.start();
  await fx.db.sql('CREATE TABLE book (id serial PRIMARY KEY, title text);');
  expect((await meta('pg_track_table', { table: 'book' })).status).toBe(200);
  expect((await meta('add_remote_schema', { name: 'shipping', definition: { url: remote.url } })).status).toBe(200);
  const current = await exported();
  const shop = { name: 'shop', kind: 'mssql', configuration: unreachable, tables: [{ table: { schema: 'dbo', name: 'orders' } }, { table: { schema: 'dbo', name: 'lines' } }] };
  expect((await meta('replace_metadata', { metadata: { ...current, sources: [...current.sources, shop] }, allow_inconsistent_metadata: true })).status).toBe(200);
});
afterAll(() => remote.stop());

describe('SQL Server remote relationships', () => {
  it('creates one to a remote schema on a table named by a bare string (dbo), stored in the new form', async () => {
    const r = await meta('mssql_create_remote_relationship', { source: 'shop', table: 'orders', name: 'shipment', definition: toSchema });
    expect(r.status).toBe(200);
    expect(shopTable(await exported(), 'orders').remote_relationships).toEqual([{ name: 'shipment', definition: toSchema }]);
  });

  it('takes the legacy form, and refuses a $column not in its fields with the path, storing nothing', async () => {
    const legacy = { source: 'shop', table: 'lines', name: 'shipment', remote_schema: 'shipping', service_fields: ['order_id'], remote_field: { shipment: { arguments: { order: '$order_id' } } } };
    expect((await meta('mssql_create_remote_relationship', legacy)).status).toBe(200);
    expect(shopTable(await exported(), 'lines').remote_relationships).toEqual([{ name: 'shipment', definition: { to_remote_schema: { remote_schema: 'shipping', lhs_fields: ['order_id'], remote_field: legacy.remote_field } } }]);
    const before = await exported();
    const r = await meta('mssql_create_remote_relationship', { ...legacy, name: 'other', remote_field: { shipment: { arguments: { order: '$id' } } } });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 'invalid-params', path: '$.args' });
    expect(await exported()).toEqual(before);
  });

  it('refuses an existing name, an unknown table and an empty field_mapping, storing nothing', async () => {
    const before = await exported();
    const cases: [unknown, number, string, string][] = [
      [{ source: 'shop', table: 'orders', name: 'shipment', definition: toSchema }, 400, 'already-exists', '$.args'],
      [{ source: 'shop', table: 'missing', name: 'x', definition: toSchema }, 400, 'not-exists', '$.args.table'],
      [{ source: 'shop', table: 'orders', name: 'book', definition: { to_source: { ...toBook.to_source, field_mapping: {} } } }, 400, 'invalid-params', '$.args'],
    ];
    for (const [args, status, code, path] of cases) {
      const r = await meta('mssql_create_remote_relationship', args);
      expect([r.status, r.body.code, r.body.path], JSON.stringify(args)).toEqual([status, code, path]);
    }
    expect(await exported()).toEqual(before);
  });

  it('updates one into a relationship to a pg table (to_source), and refuses to update an unknown one', async () => {
    const missing = await meta('mssql_update_remote_relationship', { source: 'shop', table: 'orders', name: 'nope', definition: toBook });
    expect([missing.status, missing.body.code, missing.body.path]).toEqual([400, 'not-exists', '$.args']);
    expect((await meta('mssql_update_remote_relationship', { source: 'shop', table: 'orders', name: 'shipment', definition: toBook })).status).toBe(200);
    const stored = { to_source: { ...toBook.to_source, table: { schema: 'public', name: 'book' } } };
    expect(shopTable(await exported(), 'orders').remote_relationships).toEqual([{ name: 'shipment', definition: stored }]);
  });

  it("refuses a pg table's to_source relationship into the unreachable source (the bare table is in dbo), with the reason", async () => {
    const before = await exported();
    const r = await meta('pg_create_remote_relationship', { table: 'book', name: 'order', definition: { to_source: { relationship_type: 'object', source: 'shop', table: 'orders', field_mapping: { id: 'book_id' } } } });
    expect(r.status).toBe(400);
    expect(r.body.error).toContain('table "dbo.orders" in source "shop" is not tracked or is inconsistent');
    expect(await exported()).toEqual(before);
  });

  it('round-trips through replace_metadata; the source is the only inconsistency; pg keeps answering', async () => {
    const document = await exported();
    expect((await meta('replace_metadata', { metadata: document, allow_inconsistent_metadata: true })).status).toBe(200);
    expect(await exported()).toEqual(document);
    const inconsistent = (await meta('get_inconsistent_metadata', {})).body.inconsistent_objects.map((o: any) => o.name);
    expect(inconsistent).toEqual(['source shop']);
    const q = await fx.engine.post('/v1/graphql', { query: '{ book { id } }' });
    expect(q.body).toEqual({ data: { book: [] } });
  });

  it('deletes one (the list goes when empty), and refuses to delete an unknown one', async () => {
    expect((await meta('mssql_delete_remote_relationship', { source: 'shop', table: 'orders', name: 'shipment' })).status).toBe(200);
    expect(shopTable(await exported(), 'orders').remote_relationships).toBeUndefined();
    const again = await meta('mssql_delete_remote_relationship', { source: 'shop', table: 'orders', name: 'shipment' });
    expect([again.status, again.body.code, again.body.path]).toEqual([400, 'not-exists', '$.args']);
  });
});

describe('BigQuery remote relationships', () => {
  it('are created and deleted on a table of a BigQuery source', async () => {
    const current = await exported();
    const warehouse = { name: 'warehouse', kind: 'bigquery', configuration: { service_account: { from_env: 'BQ_SA' }, project_id: 'p', datasets: 'd' }, tables: [{ table: { dataset: 'd', name: 'sale' } }] };
    expect((await meta('replace_metadata', { metadata: { ...current, sources: [...current.sources, warehouse] }, allow_inconsistent_metadata: true })).status).toBe(200);
    const table = { dataset: 'd', name: 'sale' };
    expect((await meta('bigquery_create_remote_relationship', { source: 'warehouse', table, name: 'shipment', definition: toSchema })).status).toBe(200);
    const sale = (await exported()).sources.find((s: any) => s.name === 'warehouse').tables[0];
    expect(sale.remote_relationships).toEqual([{ name: 'shipment', definition: toSchema }]);
    expect((await meta('bigquery_delete_remote_relationship', { source: 'warehouse', table, name: 'shipment' })).status).toBe(200);
  });
});
