import { beforeAll, describe, expect, it } from 'vitest';
import { useEngine } from '../support/fixture.js';

const fx = useEngine();

beforeAll(async () => {
  await fx.db.sql(`
    CREATE TABLE author (id serial PRIMARY KEY, name text, rating integer);
    CREATE TABLE article (id serial PRIMARY KEY, title text, body text, author_id integer REFERENCES author(id), is_published boolean);
    CREATE TABLE audit (id serial PRIMARY KEY, user_id integer);
  `);
  for (const table of ['author', 'article', 'audit']) await meta('pg_track_table', { table });
  await meta('pg_create_object_relationship', { table: 'article', name: 'writer', using: { manual_configuration: { remote_table: 'author', column_mapping: { author_id: 'id' } } } });
  await meta('pg_create_array_relationship', { table: 'author', name: 'articles', using: { foreign_key_constraint_on: { table: 'article', column: 'author_id' } } });
  await meta('pg_create_select_permission', {
    table: 'article',
    role: 'user',
    permission: {
      columns: ['id', 'title', 'body'],
      filter: { writer: { id: { _eq: 'X-Service-User-Id' } }, _exists: { _table: 'audit', _where: { user_id: { _ceq: ['$', 'author_id'] } } } },
    },
  });
  await meta('pg_create_insert_permission', { table: 'article', role: 'user', permission: { check: { is_published: false }, set: { author_id: 'x-service-user-id' } } });
});

const meta = (type: string, args: unknown) => fx.engine.metadata({ type, args });
const runSql = (sql: string, extra: Record<string, unknown> = {}) => fx.engine.query({ type: 'run_sql', args: { sql, ...extra } });
const table = async (name: string) => (await meta('export_metadata', {})).body.sources.find((s: any) => s.name === 'default').tables.find((t: any) => t.table.name === name);

describe('run_sql carries renames into what names the renamed thing', () => {
  it('renames a column in relationships, permission columns, presets and filters', async () => {
    expect((await runSql('ALTER TABLE author RENAME COLUMN id TO author_key; ALTER TABLE article RENAME COLUMN author_id TO writer_id; ALTER TABLE article RENAME COLUMN title TO headline')).status).toBe(200);
    const article = await table('article');
    expect(article.object_relationships[0].using).toEqual({
      manual_configuration: { remote_table: { schema: 'public', name: 'author' }, column_mapping: { writer_id: 'author_key' } },
    });
    expect(article.select_permissions[0].permission).toEqual({
      columns: ['id', 'headline', 'body'],
      filter: { writer: { author_key: { _eq: 'X-Service-User-Id' } }, _exists: { _table: 'audit', _where: { user_id: { _ceq: ['$', 'writer_id'] } } } },
    });
    expect(article.insert_permissions[0].permission.set).toEqual({ writer_id: 'x-service-user-id' });
    expect((await table('author')).array_relationships[0].using).toEqual({
      foreign_key_constraint_on: { table: { schema: 'public', name: 'article' }, column: 'writer_id' },
    });
    expect((await meta('get_inconsistent_metadata', {})).body.is_consistent).toBe(true);
  });

  it('renames a table in relationships and _exists', async () => {
    expect((await runSql('ALTER TABLE audit RENAME TO audit_log; ALTER TABLE author RENAME TO writer')).status).toBe(200);
    const article = await table('article');
    expect(article.object_relationships[0].using.manual_configuration.remote_table).toEqual({ schema: 'public', name: 'writer' });
    expect(article.select_permissions[0].permission.filter._exists._table).toEqual({ schema: 'public', name: 'audit_log' });
    expect((await table('writer')).array_relationships).toHaveLength(1);
    expect((await meta('get_inconsistent_metadata', {})).body.is_consistent).toBe(true);
  });
});

describe('run_sql that breaks metadata', () => {
  it('fails without cascade, listing what depends on a dropped column', async () => {
    const r = await runSql('ALTER TABLE article DROP COLUMN body');
    expect(r.body).toEqual({ path: '$.args', error: 'cannot drop due to the following dependent objects : permission article.user.select', code: 'dependency-error' });
    expect((await table('article')).select_permissions).toHaveLength(1);
  });

  it('refuses to change the type of a column a permission compares with a fixed value', async () => {
    const r = await runSql('ALTER TABLE article ALTER COLUMN is_published TYPE text');
    expect(r.body).toEqual({
      path: '$.args',
      error: 'cannot change type of column "is_published" in table "article" because of the following dependencies : permission article.user.insert',
      code: 'dependency-error',
    });
  });

  it('removes the dependents with cascade', async () => {
    expect((await runSql('ALTER TABLE article DROP COLUMN body', { cascade: true })).status).toBe(200);
    expect((await table('article')).select_permissions).toBeUndefined();
  });

  it('fails without cascade when a dropped table is a relationship target', async () => {
    const r = await runSql('DROP TABLE article');
    expect(r.body).toEqual({ path: '$.args', error: 'cannot drop due to the following dependent objects : relationship writer.articles', code: 'dependency-error' });
  });
});

describe('changes made outside the engine', () => {
  it('turn the broken objects into inconsistencies on reload, which drop_inconsistent_metadata removes', async () => {
    await meta('pg_create_select_permission', { table: 'writer', role: 'user', permission: { columns: ['name', 'rating'], filter: { rating: { _gt: 2 } } } });
    await fx.db.sql('ALTER TABLE writer DROP COLUMN rating');
    const reload = await meta('reload_metadata', {});
    const reason = 'Inconsistent object: in table "writer": in permission for role "user": column "rating" does not exist';
    expect(reload.body).toEqual({
      is_consistent: false,
      message: 'success',
      inconsistent_objects: [
        {
          type: 'select_permission',
          name: 'select_permission user in table writer in source default',
          definition: { source: 'default', table: { schema: 'public', name: 'writer' }, role: 'user', permission: { columns: ['name', 'rating'], filter: { rating: { _gt: 2 } } }, comment: null },
          reason,
        },
      ],
    });
    expect((await meta('drop_inconsistent_metadata', {})).status).toBe(200);
    expect((await table('writer')).select_permissions).toBeUndefined();
    expect((await meta('get_inconsistent_metadata', {})).body).toEqual({ is_consistent: true, inconsistent_objects: [] });
  });
});

describe('drops of tables and sources', () => {
  it('pg_untrack_table fails while other tables use it, and cascades when asked', async () => {
    await meta('pg_create_delete_permission', { table: 'article', role: 'user', permission: { filter: { writer: { name: { _eq: 'x' } } } } });
    const r = await meta('pg_untrack_table', { table: 'writer' });
    expect(r.body).toEqual({
      path: '$.args',
      error: 'cannot drop due to the following dependent objects : relationship article.writer, permission article.user.delete',
      code: 'dependency-error',
    });
    expect((await meta('pg_untrack_table', { table: 'writer', cascade: true })).status).toBe(200);
    const article = await table('article');
    expect(article.object_relationships).toBeUndefined();
    expect(article.delete_permissions).toBeUndefined();
  });

  it('pg_drop_source fails while an inherited role needs roles defined only there, and cascades when asked', async () => {
    const added = await meta('pg_add_source', { name: 'library', configuration: { connection_info: { database_url: { from_env: 'SERVICE_GRAPHQL_DATABASE_URL' } } } });
    expect(added.status).toBe(200);
    // Named apart from the default source's article: two objects may not define one root field.
    expect((await meta('pg_track_table', { table: 'article', source: 'library', configuration: { custom_name: 'library_article' } })).status).toBe(200);
    for (const role of ['reader', 'editor']) {
      expect((await meta('pg_create_select_permission', { source: 'library', table: 'article', role, permission: { columns: ['id'], filter: {} } })).status).toBe(200);
    }
    expect((await meta('add_inherited_role', { role_name: 'staff', role_set: ['reader', 'editor'] })).status).toBe(200);
    const r = await meta('pg_drop_source', { name: 'library' });
    expect(r.body).toEqual({ path: '$.args', error: 'cannot drop due to the following dependent objects : inherited role staff', code: 'dependency-error' });
    expect((await meta('pg_drop_source', { name: 'library', cascade: true })).status).toBe(200);
    expect((await meta('export_metadata', {})).body.inherited_roles).toBeUndefined();
  });
});
