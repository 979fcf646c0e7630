/**
 * BigQuery sources without BigQuery: configuration validated (4xx with the JSON path, nothing
 * stored); the driver runs for real up to the network (its token request fails here), so
 * bigquery_add_source is refused with the reason and a replaced document keeps the source as
 * inconsistent while pg answers. Tables are named `{dataset, name}`.
 */
import { generateKeyPairSync } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { useEngine } from '../support/fixture.js';

const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
const account = { type: 'service_account', client_email: 'engine@golden-project.iam.gserviceaccount.com', private_key: privateKey };

const fx = useEngine({ BQ_SERVICE_ACCOUNT: JSON.stringify(account) });
const meta = (type: string, args: unknown) => fx.engine.metadata({ type, args });
const exported = async () => (await meta('export_metadata', {})).body;
const configuration = { service_account: { from_env: 'BQ_SERVICE_ACCOUNT' }, project_id: 'golden-project', datasets: 'shop, audit' };

beforeAll(async () => {
  await fx.db.sql(`CREATE TABLE book (id serial PRIMARY KEY, title text); INSERT INTO book (title) VALUES ('Dune');`);
  expect((await meta('pg_track_table', { table: 'book' })).status).toBe(200);
});

describe('bigquery_add_source validation', () => {
  const cases: [string, unknown, string, string][] = [
    ['a service account without a key', { ...configuration, service_account: { client_email: 'a@b' } }, '$.args.configuration.service_account', 'no private_key'],
    ['a service account string that is not JSON', { ...configuration, service_account: '{nope' }, '$.args.configuration.service_account', 'invalid service_account'],
    ['no project', { service_account: account, datasets: 'shop' }, '$.args.configuration', 'project_id'],
    ['an empty dataset', { ...configuration, datasets: 'shop,,audit' }, '$.args.configuration.datasets', 'at least one dataset'],
    ['a negative select limit', { ...configuration, global_select_limit: -1 }, '$.args.configuration.global_select_limit', 'non-negative'],
  ];
  for (const [what, configuration, path, message] of cases) {
    it(`refuses ${what} with its path and stores nothing`, async () => {
      const before = await exported();
      const r = await meta('bigquery_add_source', { name: 'warehouse', configuration });
      expect(r.status).toBe(400);
      expect(r.body.path).toBe(path);
      expect(r.body.error).toContain(message);
      expect(await exported()).toEqual(before);
    });
  }
});

describe('an unreachable BigQuery', () => {
  it('is refused by bigquery_add_source with the reason, nothing stored', async () => {
    const before = await exported();
    const r = await meta('bigquery_add_source', { name: 'warehouse', configuration });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('invalid-configuration');
    expect(r.body.error).toContain('could not connect to source "warehouse"');
    expect(await exported()).toEqual(before);
  });

  it('is an inconsistent source of a replaced document ({dataset, name} tables, stored with schema); pg keeps answering', async () => {
    const current = await exported();
    const warehouse = { name: 'warehouse', kind: 'bigquery', tables: [{ table: { dataset: 'shop', name: 'customer' } }], configuration };
    const r = await meta('replace_metadata', { metadata: { ...current, sources: [...current.sources, warehouse] }, allow_inconsistent_metadata: true });
    expect(r.status).toBe(200);
    const inconsistent = (await meta('get_inconsistent_metadata', {})).body.inconsistent_objects;
    expect(inconsistent.map((o: any) => o.name)).toEqual(['source warehouse']);
    expect(inconsistent[0].reason).toContain('could not connect to source "warehouse"');
    expect((await exported()).sources[1]).toEqual({ ...warehouse, tables: [{ table: { schema: 'shop', name: 'customer' } }] });
    const q = await fx.engine.post('/v1/graphql', { query: '{ book { title } }' });
    expect(q.body).toEqual({ data: { book: [{ title: 'Dune' }] } });
  });

  it('stores computed fields in BigQuery\'s form (argument_mapping, return_table) and drops them', async () => {
    const definition = { function: { dataset: 'shop', name: 'purchases_above' }, argument_mapping: { customer: 'id' }, return_table: { dataset: 'shop', name: 'purchase' } };
    const table = { dataset: 'shop', name: 'customer' };
    const missing = await meta('bigquery_add_computed_field', { source: 'warehouse', table, name: 'big_purchases', definition: { ...definition, return_table: undefined } });
    expect(missing.status).toBe(400);
    expect(missing.body.path).toBe('$.args.definition');
    const pgForm = await meta('bigquery_add_computed_field', { source: 'warehouse', table, name: 'big_purchases', definition: { function: { dataset: 'shop', name: 'f' }, table_argument: 'row' } });
    expect(pgForm.status).toBe(400);
    const added = await meta('bigquery_add_computed_field', { source: 'warehouse', table, name: 'big_purchases', definition, comment: 'above a minimum' });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    const stored = (await exported()).sources[1].tables[0];
    expect(stored.computed_fields).toEqual([{ name: 'big_purchases', definition, comment: 'above a minimum' }]);
    // The document round-trips through replace_metadata with the field in BigQuery's form.
    expect((await meta('replace_metadata', { metadata: await exported(), allow_inconsistent_metadata: true })).status).toBe(200);
    expect((await exported()).sources[1].tables[0].computed_fields).toEqual([{ name: 'big_purchases', definition, comment: 'above a minimum' }]);
    expect((await meta('bigquery_drop_computed_field', { source: 'warehouse', table, name: 'big_purchases' })).status).toBe(200);
    expect((await exported()).sources[1].tables[0].computed_fields).toBeUndefined();
  });

  it('is dropped with bigquery_drop_source', async () => {
    expect((await meta('bigquery_drop_source', { name: 'warehouse' })).status).toBe(200);
    expect((await exported()).sources.map((s: any) => s.name)).toEqual(['default']);
  });
});
