import { beforeAll, describe, expect, it } from 'vitest';
import { useEngine } from '../support/fixture.js';
import { gql } from '../support/graphql.js';

const fx = useEngine();

beforeAll(async () => {
  await fx.db.sql(`
    CREATE TABLE author (id serial PRIMARY KEY, name text);
    CREATE TABLE article (id serial PRIMARY KEY, title text, author_id integer REFERENCES author(id));
  `);
});

const exportV2 = async () => (await fx.engine.metadata({ type: 'export_metadata', version: 2, args: {} })).body;
const track = (table: string) => fx.engine.metadata({ type: 'pg_track_table', args: { table } });

describe('export_metadata', () => {
  it('version 1 is the metadata object; version 2 adds resource_version', async () => {
    expect((await track('author')).status).toBe(200);
    const v1 = await fx.engine.metadata({ type: 'export_metadata', args: {} });
    const v2 = await exportV2();
    expect(v1.body.version).toBe(3);
    expect(v2).toEqual({ resource_version: expect.any(Number), metadata: v1.body });
  });

  it('rejects unexpected arguments and an unknown version', async () => {
    const extra = await fx.engine.metadata({ type: 'export_metadata', args: { x: 1 } });
    expect(extra.body.code).toBe('parse-failed');
    const bad = await fx.engine.metadata({ type: 'export_metadata', version: 3, args: {} });
    expect(bad.body).toEqual({ path: '$.version', error: 'expected 1 or 2, encountered 3', code: 'parse-failed' });
  });
});

describe('replace_metadata', () => {
  it('version 1 takes the exported document as it is', async () => {
    const doc = (await exportV2()).metadata;
    doc.sources[0].tables.push({ table: { schema: 'public', name: 'article' } });
    const r = await fx.engine.metadata({ type: 'replace_metadata', args: doc });
    expect(r).toEqual({ status: 200, body: { message: 'success' } });
    expect((await exportV2()).metadata).toEqual(doc);
  });

  it('version 2 refuses an inconsistent document with 400 and the inconsistencies, changing nothing', async () => {
    const before = await exportV2();
    const doc = structuredClone(before.metadata);
    doc.sources[0].tables.push({ table: { schema: 'public', name: 'missing' } });
    const r = await fx.engine.metadata({ type: 'replace_metadata', version: 2, args: { metadata: doc } });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      path: '$.args',
      error: 'cannot continue due to inconsistent metadata',
      code: 'unexpected',
      internal: [
        {
          type: 'table',
          name: 'table missing in source default',
          definition: { schema: 'public', name: 'missing' },
          reason: 'Inconsistent object: no such table/view exists in source: "missing"',
        },
      ],
    });
    expect(await exportV2()).toEqual(before);
  });

  it('version 2 with allow_inconsistent_metadata stores it and reports the inconsistencies', async () => {
    const before = await exportV2();
    const doc = structuredClone(before.metadata);
    doc.sources[0].tables.push({ table: { schema: 'public', name: 'missing' } });
    const r = await fx.engine.metadata({ type: 'replace_metadata', version: 2, args: { allow_inconsistent_metadata: true, metadata: doc } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ is_consistent: false, inconsistent_objects: [expect.objectContaining({ type: 'table', name: 'table missing in source default' })] });
    const after = await exportV2();
    expect(after.metadata).toEqual(doc);
    expect(after.resource_version).toBe(before.resource_version + 1);
  });

  it('infers version 2 from the shape of the arguments', async () => {
    const { metadata } = await exportV2();
    const r = await fx.engine.metadata({ type: 'replace_metadata', args: { allow_inconsistent_metadata: true, metadata } });
    expect(r.status).toBe(200);
    expect(r.body.is_consistent).toBe(false);
  });

  it('rejects a malformed document with the path of the problem', async () => {
    const r = await fx.engine.metadata({ type: 'replace_metadata', args: { version: 3, sources: [{ name: 'default', configuration: {}, tables: [{}] }] } });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('parse-failed');
    expect(r.body.path).toMatch(/^\$\.args\.sources\[0\]/);
  });

  it('refuses a document that lists a table, a source, an inherited role or a role\'s permission twice, changing nothing', async () => {
    const before = await exportV2();
    const doc = () => structuredClone(before.metadata);
    const table = (name: string, extra = {}) => ({ table: { schema: 'public', name }, ...extra });
    const refused = async (metadata: any) => {
      const r = await fx.engine.metadata({ type: 'replace_metadata', args: metadata });
      expect(r.status).toBe(400);
      return r.body;
    };
    const tables = doc();
    tables.sources[0].tables = [table('author'), table('article'), table('author')];
    expect(await refused(tables)).toEqual({ code: 'already-exists', error: 'table "author" is listed more than once', path: '$.args' });
    const sources = doc();
    sources.sources.push(structuredClone(sources.sources[0]));
    expect(await refused(sources)).toMatchObject({ error: 'source with name "default" is listed more than once', path: '$.args' });
    const roles = doc();
    roles.inherited_roles = [{ role_name: 'staff', role_set: ['a', 'b'] }, { role_name: 'staff', role_set: ['c', 'd'] }];
    expect(await refused(roles)).toMatchObject({ error: 'inherited role "staff" is listed more than once', path: '$.args' });
    const permissions = doc();
    const perm = (role: string) => ({ role, permission: { columns: ['id'], filter: {} } });
    permissions.sources[0].tables = [table('author', { select_permissions: [perm('a'), perm('b'), perm('a')] })];
    expect(await refused(permissions)).toMatchObject({ error: 'select_permissions has more than one entry for "a"', path: '$.args' });
    expect(await exportV2()).toEqual(before);
  });
});

describe('get_inconsistent_metadata and drop_inconsistent_metadata', () => {
  it('lists the inconsistent objects, then purges them', async () => {
    const list = await fx.engine.metadata({ type: 'get_inconsistent_metadata', args: {} });
    expect(list.body).toEqual({ is_consistent: false, inconsistent_objects: [expect.objectContaining({ name: 'table missing in source default' })] });
    expect((await fx.engine.metadata({ type: 'drop_inconsistent_metadata', args: {} })).body).toEqual({ message: 'success' });
    expect((await fx.engine.metadata({ type: 'get_inconsistent_metadata', args: {} })).body).toEqual({ is_consistent: true, inconsistent_objects: [] });
    const names = (await exportV2()).metadata.sources[0].tables.map((t: any) => t.table.name);
    expect(names).toEqual(['author', 'article']);
  });
});

describe('resource_version', () => {
  it('answers 409 conflict to any request carrying a stale resource_version', async () => {
    const { resource_version: current } = await exportV2();
    for (const body of [
      { type: 'pg_track_table', resource_version: current - 1, args: { table: 'author' } },
      { type: 'export_metadata', resource_version: current - 1, args: {} },
      { type: 'reload_metadata', resource_version: current - 1, args: {} },
      { type: 'bulk', resource_version: current - 1, args: [] },
    ]) {
      const r = await fx.engine.metadata(body);
      expect(r.status).toBe(409);
      expect(r.body).toEqual({
        path: '$',
        error: `metadata resource version referenced (${current - 1}) did not match current version (${current})`,
        code: 'conflict',
      });
    }
    expect((await exportV2()).resource_version).toBe(current);
  });

  it('accepts the current resource_version and moves it on a change', async () => {
    const { resource_version: current } = await exportV2();
    const r = await fx.engine.metadata({ type: 'pg_untrack_table', resource_version: current, args: { table: 'article' } });
    expect(r.status).toBe(200);
    expect((await exportV2()).resource_version).toBe(current + 1);
  });

  it('does not move on a no-op: reload_metadata, or setting what is already set', async () => {
    const { resource_version: current } = await exportV2();
    expect((await fx.engine.metadata({ type: 'reload_metadata', resource_version: current, args: {} })).status).toBe(200);
    expect((await fx.engine.metadata({ type: 'pg_set_table_customization', args: { table: 'author', configuration: {} } })).status).toBe(200);
    const { metadata } = await exportV2();
    expect((await fx.engine.metadata({ type: 'replace_metadata', version: 2, resource_version: current, args: { metadata } })).status).toBe(200);
    expect((await exportV2()).resource_version).toBe(current);
  });
});

describe('reload_metadata', () => {
  it('answers whether the metadata is consistent', async () => {
    const r = await fx.engine.metadata({ type: 'reload_metadata', args: {} });
    expect(r.body).toEqual({ is_consistent: true, message: 'success' });
  });

  it('sees tables dropped behind its back', async () => {
    await fx.db.sql('CREATE TABLE temp_t (id int PRIMARY KEY)');
    expect((await track('temp_t')).status).toBe(200);
    await fx.db.sql('DROP TABLE temp_t');
    const skipped = await fx.engine.metadata({ type: 'reload_metadata', args: { reload_sources: false } });
    expect(skipped.body.is_consistent).toBe(true);
    const r = await fx.engine.metadata({ type: 'reload_metadata', args: { reload_sources: ['default'], reload_remote_schemas: true, recreate_event_triggers: false } });
    expect(r.body).toEqual({ is_consistent: false, message: 'success', inconsistent_objects: [expect.objectContaining({ type: 'table', name: 'table temp_t in source default' })] });
    expect((await fx.engine.metadata({ type: 'drop_inconsistent_metadata', args: {} })).status).toBe(200);
  });

  it('refuses an unknown source and a wrong argument', async () => {
    const unknown = await fx.engine.metadata({ type: 'reload_metadata', args: { reload_sources: ['nope'] } });
    expect(unknown.body).toEqual({ path: '$.args', error: 'source with name "nope" does not exist', code: 'not-exists' });
    const wrong = await fx.engine.metadata({ type: 'reload_metadata', args: { reload_sources: 'all' } });
    expect(wrong.body).toMatchObject({ path: '$.args.reload_sources', code: 'parse-failed' });
  });
});

describe('clear_metadata', () => {
  it('forgets everything but the default source', async () => {
    expect((await fx.engine.metadata({ type: 'clear_metadata', args: {} })).body).toEqual({ message: 'success' });
    const { metadata } = await exportV2();
    expect(metadata.sources).toEqual([expect.objectContaining({ name: 'default', tables: [] })]);
    expect(Object.keys(metadata)).toEqual(['version', 'sources']);
  });
});

describe('access without an admin secret', () => {
  it('treats every request as admin, unless it names another role', async () => {
    expect((await fx.engine.metadata({ type: 'export_metadata', args: {} })).status).toBe(200);
    const r = await fx.engine.metadata({ type: 'export_metadata', args: {} }, { 'x-service-role': 'user' });
    expect(r).toEqual({ status: 400, body: { path: '$.args', error: 'restricted access : admin only', code: 'access-denied' } });
  });
});

describe('replace_metadata after DDL outside the engine', () => {
  it('sees a table created in the database since the engine last read its catalog', async () => {
    const { metadata } = await exportV2();
    await fx.db.sql('CREATE TABLE created_outside (id serial PRIMARY KEY)');
    metadata.sources[0].tables = [{ table: { schema: 'public', name: 'created_outside' } }];
    const r = await fx.engine.metadata({ type: 'replace_metadata', version: 2, args: { metadata } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect((await fx.engine.metadata({ type: 'get_inconsistent_metadata', args: {} })).body.is_consistent).toBe(true);
  });
});

describe('replace_metadata of hundreds of tables (their entries stored in several statements, equal permission bodies once)', () => {
  const tables = Array.from({ length: 600 }, (_, i) => `wide_${i}`);
  const entry = (name: string) => ({ table: { schema: 'public', name }, select_permissions: ['user', 'viewer'].map((role) => ({ role, permission: { columns: ['id'], filter: { id: { _gt: 0 } } } })) });
  const asUser = (query: string) => gql(fx.engine, query, undefined, { 'x-service-role': 'viewer' });

  it('serves the new document; one refused as inconsistent changes neither the stored document nor what is served', async () => {
    await fx.db.sql(tables.map((t) => `CREATE TABLE ${t} (id int PRIMARY KEY);`).join('\n'));
    const { metadata } = await exportV2();
    metadata.sources[0].tables = tables.map(entry);
    const r = await fx.engine.metadata({ type: 'replace_metadata', version: 2, args: { metadata } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(await asUser('{ wide_599 { id } }')).toEqual({ data: { wide_599: [] } });
    const before = await exportV2();

    const refused = structuredClone(before.metadata);
    refused.sources[0].tables = [...tables.slice(1).map(entry), entry('missing')];
    const answer = await fx.engine.metadata({ type: 'replace_metadata', version: 2, args: { metadata: refused } });
    expect([answer.status, answer.body.error]).toEqual([400, 'cannot continue due to inconsistent metadata']);
    expect(await exportV2()).toEqual(before);
    expect(await asUser('{ wide_0 { id } }')).toEqual({ data: { wide_0: [] } });
    // The next change is served on the stored document, not on the refused one.
    expect((await fx.engine.metadata({ type: 'pg_drop_select_permission', args: { table: 'wide_1', role: 'viewer' } })).status).toBe(200);
    expect(await asUser('{ wide_0 { id } }')).toEqual({ data: { wide_0: [] } });
    expect((await asUser('{ wide_1 { id } }')).errors?.[0]?.extensions.code).toBe('validation-failed');
  });
});
