/**
 * citus_* operations end to end on a plain PostgreSQL whose `public.pg_dist_partition` stands in
 * for Citus' catalog (found on the search path, as the real one in pg_catalog is): distribution
 * read at introspection, relationships refused as Citus cannot join them, queries and permissions
 * as on PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../support/db.js';
import { startEngine, type Engine } from '../support/engine.js';

let db: TestDatabase;
let cluster: TestDatabase;
let engine: Engine;

beforeAll(async () => {
  db = await freshDatabase();
  cluster = await freshDatabase();
  await cluster.sql(`
    CREATE TABLE pg_dist_partition (logicalrelid regclass, partmethod "char", partkey text, colocationid integer, repmodel "char");
    CREATE TABLE country (code text PRIMARY KEY, name text);
    CREATE TABLE company (id integer PRIMARY KEY, name text, country_code text REFERENCES country(code));
    CREATE TABLE campaign (company_id integer REFERENCES company(id), id integer, name text, PRIMARY KEY (company_id, id));
    CREATE TABLE note (id integer PRIMARY KEY, company_id integer, country_code text, body text);
    INSERT INTO pg_dist_partition VALUES
      ('company', 'h', '{VAR :varno 1 :varattno 1 :vartype 23 :vartypmod -1 :varcollid 0 :varlevelsup 0 :location -1}', 1, 's'),
      ('campaign', 'h', '{VAR :varno 1 :varattno 1 :vartype 23 :vartypmod -1 :varcollid 0 :varlevelsup 0 :location -1}', 1, 's'),
      ('country', 'n', NULL, 2, 't');
    INSERT INTO country VALUES ('FR', 'France'), ('JP', 'Japan');
    INSERT INTO company VALUES (1, 'Acme', 'FR'), (2, 'Globex', 'JP');
    INSERT INTO campaign VALUES (1, 1, 'spring'), (1, 2, 'autumn'), (2, 1, 'launch');
    INSERT INTO note VALUES (1, 1, 'FR', 'call back');
  `);
  engine = await startEngine({ SERVICE_GRAPHQL_DATABASE_URL: db.url, CITUS_URL: cluster.url });
});

afterAll(async () => {
  await engine?.stop();
  await db?.drop();
  await cluster?.drop();
});

const meta = (type: string, args: Record<string, unknown>) => engine.metadata({ type, args: { source: 'cluster', ...args } });
const relationship = (kind: 'object' | 'array', table: string, name: string, using: unknown) => meta(`citus_create_${kind}_relationship`, { table, name, using });
const manual = (remote_table: string, column_mapping: Record<string, string>) => ({ manual_configuration: { remote_table, column_mapping } });

describe('citus sources', () => {
  it('adds a source with the PostgreSQL configuration, stored as kind citus', async () => {
    const add = await engine.metadata({ type: 'citus_add_source', args: { name: 'cluster', configuration: { connection_info: { database_url: { from_env: 'CITUS_URL' } } } } });
    expect(add).toEqual({ status: 200, body: { message: 'success' } });
    const exported = (await engine.metadata({ type: 'export_metadata', args: {} })).body;
    expect(exported.sources.find((s: any) => s.name === 'cluster')).toMatchObject({ name: 'cluster', kind: 'citus' });
  });

  it('tracks distributed, reference and local tables', async () => {
    for (const table of ['country', 'company', 'campaign', 'note']) expect((await meta('citus_track_table', { table })).status).toBe(200);
  });

  it('allows relationships Citus can join', async () => {
    expect((await relationship('object', 'campaign', 'company', { foreign_key_constraint_on: 'company_id' })).status).toBe(200);
    expect((await relationship('array', 'company', 'campaigns', { foreign_key_constraint_on: { table: 'campaign', column: 'company_id' } })).status).toBe(200);
    expect((await relationship('object', 'company', 'country', { foreign_key_constraint_on: 'country_code' })).status).toBe(200);
    expect((await relationship('object', 'note', 'country', manual('country', { country_code: 'code' }))).status).toBe(200);
    expect((await relationship('array', 'country', 'notes', manual('note', { code: 'country_code' }))).status).toBe(200);
  });

  it('refuses the relationships Citus cannot join, naming why, and stores nothing', async () => {
    const before = (await engine.metadata({ type: 'export_metadata', args: {} })).body;
    const cases: [Parameters<typeof relationship>, string][] = [
      [['array', 'company', 'same_country', manual('country', { country_code: 'code' })], 'only object relationships are supported from a distributed table "company" to reference table "country"'],
      [['array', 'country', 'companies', manual('company', { code: 'country_code' })], 'relationships from a reference table "country" to distributed table "company" are not supported on a distributed database'],
      [['object', 'note', 'company', manual('company', { company_id: 'id' })], 'relationships from a local table "note" to distributed table "company" are not supported on a distributed database'],
      [['array', 'company', 'notes', manual('note', { id: 'company_id' })], 'relationships from a distributed table "company" to local table "note" are not supported on a distributed database'],
      [['object', 'campaign', 'namesake', manual('company', { name: 'name' })], 'a relationship between distributed tables must join their distribution columns ("company_id" to "id")'],
    ];
    for (const [args, why] of cases) {
      const r = await relationship(...args);
      expect(r.status).toBe(400);
      expect(r.body.error).toBe(`Inconsistent object: in table "${args[1]}": in relationship "${args[2]}": ${why}`);
      expect(r.body.code).toBe('invalid-configuration');
    }
    expect((await engine.metadata({ type: 'export_metadata', args: {} })).body).toEqual(before);
  });

  it('answers queries across the allowed relationships, with permissions', async () => {
    const perm = await meta('citus_create_select_permission', {
      table: 'company',
      role: 'user',
      permission: { columns: ['id', 'name'], filter: { country_code: { _eq: 'X-Service-Country' } } },
    });
    expect(perm.status).toBe(200);
    const admin = await engine.post('/v1/graphql', { query: '{ company(order_by: {id: asc}) { name country { name } campaigns(order_by: {id: asc}) { name company { id } } } }' });
    expect(admin.body).toEqual({
      data: {
        company: [
          { name: 'Acme', country: { name: 'France' }, campaigns: [{ name: 'spring', company: { id: 1 } }, { name: 'autumn', company: { id: 1 } }] },
          { name: 'Globex', country: { name: 'Japan' }, campaigns: [{ name: 'launch', company: { id: 2 } }] },
        ],
      },
    });
    const user = await engine.post('/v1/graphql', { query: '{ company { id name } }' }, { 'X-Service-Role': 'user', 'X-Service-Country': 'JP' });
    expect(user.body).toEqual({ data: { company: [{ id: 2, name: 'Globex' }] } });
  });

  it('drops the source with citus_drop_source', async () => {
    expect((await engine.metadata({ type: 'citus_drop_source', args: { name: 'cluster', cascade: true } })).status).toBe(200);
    const exported = (await engine.metadata({ type: 'export_metadata', args: {} })).body;
    expect(exported.sources.map((s: any) => s.name)).toEqual(['default']);
  });
});
