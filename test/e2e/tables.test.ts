import { beforeAll, describe, expect, it } from 'vitest';
import { useEngine } from '../support/fixture.js';

const fx = useEngine();

beforeAll(async () => {
  await fx.db.sql(`
    CREATE TABLE author (id serial PRIMARY KEY, name text UNIQUE, remarks text);
    CREATE TABLE article (id serial PRIMARY KEY, title text, author_id integer REFERENCES author(id));
    CREATE SCHEMA other;
    CREATE TABLE other.resident (id serial PRIMARY KEY, name text NOT NULL);
    CREATE TABLE colors (value text PRIMARY KEY, comment text);
    INSERT INTO colors VALUES ('red', 'Red'), ('blue', NULL);
    CREATE TABLE employees (id integer PRIMARY KEY, name text, favorite_color text, gets_paid_on text);
    CREATE TABLE "bad name" (id integer CONSTRAINT bad_name_pkey PRIMARY KEY);
    CREATE TABLE bad_constraint (id integer CONSTRAINT "bad constraint" PRIMARY KEY);
  `);
});

const tables = async () => {
  const r = await fx.engine.metadata({ type: 'export_metadata', args: {} });
  return r.body.sources[0].tables;
};

describe('pg_track_table / pg_untrack_table', () => {
  it('tracks a table and lists it in the export', async () => {
    const r = await fx.engine.metadata({ type: 'pg_track_table', args: { table: 'author' } });
    expect(r).toEqual({ status: 200, body: { message: 'success' } });
    expect(await tables()).toEqual([{ table: { schema: 'public', name: 'author' } }]);
  });

  it('refuses to track a table twice', async () => {
    const r = await fx.engine.metadata({ type: 'pg_track_table', args: { table: { schema: 'public', name: 'author' } } });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ path: '$.args', error: 'view/table already tracked: "author"', code: 'already-tracked' });
  });

  it('refuses a table that does not exist, naming it', async () => {
    const r = await fx.engine.metadata({ type: 'pg_track_table', args: { table: 'random' } });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('not-exists');
    expect(r.body.error).toContain('"random"');
  });

  it('refuses an unknown source', async () => {
    const r = await fx.engine.metadata({ type: 'pg_track_table', args: { table: 'author', source: 'nope' } });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ path: '$.args', error: 'source with name "nope" does not exist', code: 'not-exists' });
  });

  it('refuses a table whose constraint names are not GraphQL names', async () => {
    const r = await fx.engine.metadata({ type: 'pg_track_table', args: { table: 'bad_constraint' } });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('not-supported');
    expect(r.body.error).toContain('"bad constraint"');
  });

  it('needs a custom_name for a table whose name is not a GraphQL name', async () => {
    const bad = await fx.engine.metadata({ type: 'pg_track_table', args: { table: 'bad name' } });
    expect(bad.status).toBe(400);
    const ok = await fx.engine.metadata({ type: 'pg_track_table', args: { table: 'bad name', configuration: { custom_name: 'bad_name' } } });
    expect(ok.status).toBe(200);
  });

  it('tracks a table in another schema with a configuration', async () => {
    const configuration = {
      custom_name: 'residents',
      custom_root_fields: { select: 'all_residents', select_by_pk: 'resident' },
      column_config: { name: { custom_name: 'fullName', comment: 'the name' } },
      comment: 'people',
    };
    const r = await fx.engine.metadata({ type: 'pg_track_table', args: { table: { schema: 'other', name: 'resident' }, configuration } });
    expect(r.status).toBe(200);
    const t = (await tables()).find((x: any) => x.table.schema === 'other');
    expect(t).toEqual({ table: { schema: 'other', name: 'resident' }, configuration });
  });

  it('rejects a configuration naming an unknown column, with its path', async () => {
    const r = await fx.engine.metadata({
      type: 'pg_track_table',
      args: { table: 'article', configuration: { column_config: { nope: { custom_name: 'x' } } } },
    });
    expect(r.status).toBe(400);
    expect(r.body.path).toBe('$.args');
  });

  it('rejects unexpected arguments and wrong types with their paths', async () => {
    const extra = await fx.engine.metadata({ type: 'pg_track_table', args: { table: 'article', colour: 'red' } });
    expect(extra.status).toBe(400);
    expect(extra.body.code).toBe('parse-failed');
    expect(extra.body.error).toContain('colour');
    const wrong = await fx.engine.metadata({ type: 'pg_track_table', args: { table: 'article', source: 5 } });
    expect(wrong.body).toEqual({ path: '$.args.source', error: 'parsing Text failed, expected String, but encountered Number', code: 'parse-failed' });
    const missing = await fx.engine.metadata({ type: 'pg_track_table', args: {} });
    expect(missing.body).toEqual({ path: '$.args', error: 'key "table" not found', code: 'parse-failed' });
  });

  it('untrack fails while another table depends on it, and cascades when asked', async () => {
    await fx.engine.metadata({ type: 'pg_track_table', args: { table: 'article' } });
    // A relationship from article to author (written directly into the document).
    const exp = (await fx.engine.metadata({ type: 'export_metadata', args: {} })).body;
    const article = exp.sources[0].tables.find((t: any) => t.table.name === 'article');
    article.object_relationships = [{ name: 'author', using: { manual_configuration: { remote_table: 'author', column_mapping: { author_id: 'id' } } } }];
    expect((await fx.engine.metadata({ type: 'replace_metadata', args: exp })).status).toBe(200);

    const r = await fx.engine.metadata({ type: 'pg_untrack_table', args: { table: 'author' } });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ path: '$.args', error: 'cannot drop due to the following dependent objects : relationship article.author', code: 'dependency-error' });

    const c = await fx.engine.metadata({ type: 'pg_untrack_table', args: { table: 'author', cascade: true } });
    expect(c.status).toBe(200);
    const after = await tables();
    expect(after.find((t: any) => t.table.name === 'author')).toBeUndefined();
    expect(after.find((t: any) => t.table.name === 'article').object_relationships).toBeUndefined();
  });

  it('refuses to untrack a table that is not tracked', async () => {
    const r = await fx.engine.metadata({ type: 'pg_untrack_table', args: { table: 'author' } });
    expect(r.body).toEqual({ path: '$.args', error: 'view/table already untracked: "author"', code: 'already-untracked' });
  });
});

describe('pg_set_table_is_enum', () => {
  it('marks a valid enum table and clears it', async () => {
    await fx.engine.metadata({ type: 'pg_track_table', args: { table: 'colors' } });
    const on = await fx.engine.metadata({ type: 'pg_set_table_is_enum', args: { table: 'colors', is_enum: true } });
    expect(on.status).toBe(200);
    expect((await tables()).find((t: any) => t.table.name === 'colors').is_enum).toBe(true);
    await fx.engine.metadata({ type: 'pg_set_table_is_enum', args: { table: 'colors', is_enum: false } });
    expect((await tables()).find((t: any) => t.table.name === 'colors').is_enum).toBeUndefined();
  });

  it('explains why a table cannot be an enum', async () => {
    await fx.engine.metadata({ type: 'pg_track_table', args: { table: 'employees' } });
    const r = await fx.engine.metadata({ type: 'pg_set_table_is_enum', args: { table: 'employees', is_enum: true } });
    expect(r.status).toBe(400);
    expect(r.body.error).toBe(
      'the table "employees" cannot be used as an enum for the following reasons:\n' +
        '  • the table’s primary key ("id") must have type "text", not type "integer"\n' +
        '  • the table must have exactly one primary key and optionally one comment column, not 4 columns (favorite_color, gets_paid_on, id, name)\n',
    );
  });

  it('needs the table to be tracked', async () => {
    const r = await fx.engine.metadata({ type: 'pg_set_table_is_enum', args: { table: 'author', is_enum: true } });
    expect(r.body).toEqual({ path: '$.args.table', error: 'table "author" does not exist in source: default', code: 'not-exists' });
  });
});

describe('pg_set_table_customization and pg_set_generic_federation_config', () => {
  it('replaces the configuration', async () => {
    await fx.engine.metadata({ type: 'pg_track_table', args: { table: 'author' } });
    const r = await fx.engine.metadata({
      type: 'pg_set_table_customization',
      args: { table: 'author', configuration: { identifier: 'writer', custom_root_fields: { insert: 'add_writer' } } },
    });
    expect(r.status).toBe(200);
    const t = (await tables()).find((x: any) => x.table.name === 'author');
    expect(t.configuration).toEqual({ identifier: 'writer', custom_root_fields: { insert: 'add_writer' } });
    await fx.engine.metadata({ type: 'pg_set_table_customization', args: { table: 'author', configuration: {} } });
    expect((await tables()).find((x: any) => x.table.name === 'author').configuration).toBeUndefined();
  });

  it('sets and removes the federation config', async () => {
    const on = await fx.engine.metadata({ type: 'pg_set_generic_federation_config', args: { table: 'author', generic_federation_config: { enable: 'v1' } } });
    expect(on.status).toBe(200);
    expect((await tables()).find((x: any) => x.table.name === 'author').generic_federation_config).toEqual({ enable: 'v1' });
    const bad = await fx.engine.metadata({ type: 'pg_set_generic_federation_config', args: { table: 'author', generic_federation_config: { enable: 'v2' } } });
    expect(bad.status).toBe(400);
    expect(bad.body.path).toBe('$.args.generic_federation_config.enable');
    await fx.engine.metadata({ type: 'pg_set_generic_federation_config', args: { table: 'author', generic_federation_config: null } });
    expect((await tables()).find((x: any) => x.table.name === 'author').generic_federation_config).toBeUndefined();
  });
});
