import { beforeAll, describe, expect, it } from 'vitest';
import { useEngine } from '../support/fixture.js';

const fx = useEngine();

beforeAll(async () => {
  await fx.db.sql(`
    CREATE TABLE author (id serial PRIMARY KEY, name text);
    CREATE TABLE article (id serial PRIMARY KEY, title text, author_id integer REFERENCES author(id));
    CREATE FUNCTION fetch_articles(search text, author_row author) RETURNS SETOF article AS $$
      SELECT * FROM article WHERE author_id = author_row.id $$ LANGUAGE sql STABLE;
  `);
  const steps: [string, unknown][] = [
    ['pg_track_table', { table: 'author' }],
    ['pg_track_table', { table: 'article' }],
    ['pg_create_object_relationship', { table: 'article', name: 'author', using: { foreign_key_constraint_on: 'author_id' }, comment: 'writer' }],
    ['pg_create_array_relationship', { table: 'author', name: 'articles', using: { foreign_key_constraint_on: { table: 'article', columns: ['author_id'] } } }],
    ['pg_create_array_relationship', { table: 'author', name: 'by_hand', using: { manual_configuration: { remote_table: 'article', column_mapping: { id: 'author_id' } } } }],
    ['pg_add_computed_field', { table: 'author', name: 'search', definition: { function: 'fetch_articles', table_argument: 'author_row' }, comment: 'find' }],
    ['pg_create_insert_permission', { table: 'article', role: 'user', permission: { check: { author_id: 'X-Service-User-Id' }, set: { author_id: 'x-service-user-id' }, columns: '*' } }],
    ['pg_create_select_permission', { table: 'article', role: 'user', permission: { columns: ['id', 'title'], filter: { author: { id: 'X-Service-User-Id' } }, limit: 5 } }],
    ['pg_create_select_permission', { table: 'article', role: 'guest', permission: { columns: ['id'], filter: {}, allow_aggregations: true } }],
    ['pg_create_update_permission', { table: 'article', role: 'user', permission: { columns: ['title'], filter: { author_id: 'X-Service-User-Id' }, check: {} } }],
    ['pg_create_delete_permission', { table: 'article', role: 'user', permission: { filter: { author_id: 'X-Service-User-Id' } }, comment: 'own only' }],
    ['add_inherited_role', { role_name: 'member', role_set: ['user', 'guest'] }],
  ];
  for (const [type, args] of steps) expect((await fx.engine.metadata({ type, args })).status).toBe(200);
});

const exportV1 = async () => (await fx.engine.metadata({ type: 'export_metadata', args: {} })).body;

describe('export_metadata round-trips', () => {
  it('replace_metadata with an export gives back the same export', async () => {
    const before = await exportV1();
    expect(await fx.engine.metadata({ type: 'replace_metadata', args: before })).toEqual({ status: 200, body: { message: 'success' } });
    expect(await exportV1()).toEqual(before);
  });

  it('through version 2 and the deprecated endpoint too', async () => {
    const v2 = (await fx.engine.metadata({ type: 'export_metadata', version: 2, args: {} })).body;
    const replaced = await fx.engine.metadata({ type: 'replace_metadata', version: 2, resource_version: v2.resource_version, args: { metadata: v2.metadata } });
    expect(replaced.status).toBe(200);
    const viaQuery = (await fx.engine.query({ type: 'export_metadata', args: {} })).body;
    expect((await fx.engine.query({ type: 'replace_metadata', args: viaQuery })).status).toBe(200);
    expect(await exportV1()).toEqual(v2.metadata);
  });

  it('stores a hand-written document in the exported form', async () => {
    const m = await exportV1();
    const author = m.sources[0].tables.find((t: any) => t.table.name === 'author');
    const article = m.sources[0].tables.find((t: any) => t.table.name === 'article');
    author.array_relationships = [
      { name: 'by_hand', using: { manual_configuration: { remote_table: 'article', column_mapping: { id: 'author_id' } } }, comment: null },
      { name: 'articles', using: { foreign_key_constraint_on: { table: 'article', column: 'author_id' } } },
    ];
    author.computed_fields = [{ name: 'search', definition: { function: 'fetch_articles', table_argument: 'author_row' }, comment: 'find' }];
    article.select_permissions = [
      { role: 'user', permission: { columns: ['id', 'title'], filter: { author: { id: 'X-Service-User-Id' } }, limit: 5, allow_aggregations: false, computed_fields: [] }, comment: null },
      { role: 'guest', permission: { columns: ['id'], filter: {}, allow_aggregations: true } },
    ];
    m.inherited_roles = [{ role_name: 'member', role_set: ['user', 'guest'] }];
    const before = await exportV1();
    expect((await fx.engine.metadata({ type: 'replace_metadata', args: m })).status).toBe(200);
    expect(await exportV1()).toEqual(before);
  });

  it('refuses a malformed object in the document with its path', async () => {
    const m = await exportV1();
    m.sources[0].tables[0].array_relationships[0].using = {};
    const r = await fx.engine.metadata({ type: 'replace_metadata', args: m });
    expect(r.body).toMatchObject({ code: 'parse-failed', path: '$.args.sources[0].tables[0].array_relationships[0].using' });
  });
});
