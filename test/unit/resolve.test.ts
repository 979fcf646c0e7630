/**
 * Resolution's stages on a document and a catalog made by hand (metadata/resolve.ts): what each
 * stage reports, that a dependent object is reported with what it depends on, and that what a
 * thread's memo keeps never changes an answer, only what is checked again.
 */
import { describe, expect, it } from 'vitest';
import { backendFor, loadEveryBackend } from '../../src/backends/registry.js';
import type { CatalogColumn, CatalogTable, DatabaseCatalog } from '../../src/catalog/types.js';
import { parseMetadataDocument } from '../../src/metadata/document.js';
import { resolveDocument, resolveMetadata, type AdminSchemaChecks } from '../../src/metadata/resolve.js';
import { ResolveMemo } from '../../src/metadata/resolve/memo.js';
import type { SourceCatalog } from '../../src/metadata/resolve/types.js';
import { emptyMetadata, type Metadata } from '../../src/metadata/types.js';
import { deepFreeze, produce } from '../../src/util/draft.js';
import type { JsonObject } from '../../src/util/decode.js';
import { pgType } from '../support/pg-types.js';

await loadEveryBackend();

const column = (name: string, position: number, type: 'int4' | 'text'): CatalogColumn => ({
  name, position, nullable: false, default: null, isIdentity: false, isGenerated: false, comment: null, type: pgType(type, type === 'int4' ? 'integer' : 'text'),
});
const table = (oid: number, name: string, columns: CatalogColumn[]): CatalogTable => ({
  oid, schema: 'public', name, kind: 'table', comment: null, columns, primaryKey: { name: `${name}_pkey`, columns: ['id'] }, uniqueConstraints: [], foreignKeys: [],
  constraintNames: [`${name}_pkey`], insertable: true, updatable: true, deletable: true,
});
const catalog: DatabaseCatalog = {
  serverVersion: 150000,
  tables: [table(1, 'author', [column('id', 1, 'int4'), column('name', 2, 'text')]), table(2, 'article', [column('id', 1, 'int4'), column('author_id', 2, 'int4'), column('title', 3, 'text')])],
  functions: [],
  enumTypes: [],
  baseTypes: ['int4', 'text'].map((n) => pgType(n)),
};
const catalogs: ReadonlyMap<string, SourceCatalog> = new Map([['default', { introspection: catalog, error: null }]]);

const readerSelect = (filter: object) => ({ role: 'reader', permission: { columns: ['id', 'title'], filter } });

function documentOf(tables: object[], extra: object = {}): Metadata {
  const doc = { version: 3, sources: [{ name: 'default', kind: 'postgres', configuration: { connection_info: { database_url: 'postgres://x' } }, tables }], ...extra };
  return deepFreeze(parseMetadataDocument(doc, '$', emptyMetadata(), backendFor));
}

const article = (select: object[] = [readerSelect({ author: { name: { _eq: 'X-Service-User-Id' } } })]) => ({
  table: { schema: 'public', name: 'article' },
  object_relationships: [{ name: 'author', using: { manual_configuration: { remote_table: { schema: 'public', name: 'author' }, column_mapping: { author_id: 'id' } } } }],
  select_permissions: select,
});
const author = { table: { schema: 'public', name: 'author' }, select_permissions: [readerSelect({})].map((p) => ({ ...p, permission: { columns: ['id'], filter: {} } })) };

const reasons = (m: Metadata, memo = new ResolveMemo()) => resolveMetadata(m, catalogs, memo).inconsistencies.map((i) => `${i.object.type} ${i.object.name}: ${i.object.reason}`);

describe('resolution', () => {
  it('resolves a consistent document with nothing to report', () => {
    const resolved = resolveMetadata(documentOf([author, article()]), catalogs, new ResolveMemo());
    expect(resolved.inconsistencies).toEqual([]);
    expect([...resolved.sources.get('default')!.tables.keys()]).toEqual(['public.author', 'public.article']);
    expect(resolved.sources.get('default')!.tables.get('public.article')!.permissions.select.get('reader')?.columns).toEqual(['id', 'title']);
  });

  it('reports a table missing from the catalog (stage 2), with no separate report for what stands on it', () => {
    const ghost = { table: { schema: 'public', name: 'ghost' }, select_permissions: [readerSelect({})] };
    expect(reasons(documentOf([author, article(), ghost]))).toEqual(['table table ghost in source default: Inconsistent object: no such table/view exists in source: "ghost"']);
  });

  it('reports a relationship to a table that is not tracked (stage 3), and the permission that goes through it (stage 6)', () => {
    expect(reasons(documentOf([article()]))).toEqual([
      'object_relation object_relation author in table article in source default: Inconsistent object: in table "article": in relationship "author": table "author" is not tracked',
      'select_permission select_permission reader in table article in source default: Inconsistent object: in table "article": in permission for role "reader": "author" does not exist',
    ]);
  });

  it('reports a permission whose filter names a column the table lacks (stage 6), with the reason', () => {
    expect(reasons(documentOf([author, article([readerSelect({ nope: { _eq: 1 } })])]))).toEqual([
      'select_permission select_permission reader in table article in source default: Inconsistent object: in table "article": in permission for role "reader": "nope" does not exist',
    ]);
  });

  it('gives the same answer with a memo kept from other runs, and checks again only the table a change touched', () => {
    const memo = new ResolveMemo();
    const before = documentOf([author, article()]);
    const first = resolveMetadata(before, catalogs, memo);
    // The author table's select permission for `reader` changes; article's entry stays the same object.
    const after = deepFreeze(produce(before, (d) => void (d.sources[0]!.tables[0]!.select_permissions![0]!.permission = { columns: ['id', 'name'], filter: {} })));
    const warm = resolveMetadata(after, catalogs, memo);
    const cold = resolveMetadata(after, catalogs, new ResolveMemo());
    const perms = (r: typeof warm, t: string) => r.sources.get('default')!.tables.get(t)!.permissions;
    expect(perms(warm, 'public.article')).toBe(perms(first, 'public.article'));
    expect(perms(warm, 'public.author')).not.toBe(perms(first, 'public.author'));
    expect(perms(warm, 'public.author').select.get('reader')?.columns).toEqual(['id', 'name']);
    expect(warm.inconsistencies).toEqual(cold.inconsistencies);
    expect(perms(warm, 'public.author').select.get('reader')).toEqual(perms(cold, 'public.author').select.get('reader'));
  });

  it('checks again only the tables a change touched, keeping what the others reported, in the tables\' order', () => {
    const memo = new ResolveMemo();
    const broken: JsonObject = { role: 'reader', permission: { columns: ['id'], filter: { nope: { _eq: 1 } } } };
    const mended: JsonObject = { role: 'reader', permission: { columns: ['id'], filter: {} } };
    const steps = [documentOf([author, article()])];
    const change = (recipe: (d: Metadata) => void) => steps.push(deepFreeze(produce(steps.at(-1)!, recipe)));
    // article's permission breaks; then author's (before it in the list) too; then article's is mended.
    change((d) => void (d.sources[0]!.tables[1]!.select_permissions = [broken]));
    change((d) => void (d.sources[0]!.tables[0]!.select_permissions = [broken]));
    change((d) => void (d.sources[0]!.tables[1]!.select_permissions = [mended]));
    const warm = steps.map((m) => reasons(m, memo));
    expect(warm).toEqual(steps.map((m) => reasons(m)));
    expect(warm.map((r) => r.map((x) => x.split(' ')[5]))).toEqual([[], ['article'], ['author', 'article'], ['author']]);
  });

  it('runs every stage on a whole document: unreachable remote schemas (9) and the collections check it is given (12)', () => {
    const calls: string[] = [];
    const admin: AdminSchemaChecks = {
      sourceNames: () => ({ rootField: () => false, type: () => undefined }),
      rootFieldClaims: () => [],
      collections: (_m, _c, _r, served) => {
        calls.push(`collections, ${served.inconsistencies.length} inconsistent before`);
        return [];
      },
    };
    const m = documentOf([author, article()], { remote_schemas: [{ name: 'weather', definition: { url: 'http://127.0.0.1:1/graphql' } }] });
    const found = resolveDocument(m, { catalogs, remotes: new Map([['weather', { introspection: null, error: 'connection refused' }]]), env: {} }, new ResolveMemo(), admin);
    expect(found.conflicts).toEqual([]);
    expect(found.inconsistencies.map((i) => i.object.reason)).toEqual(['Inconsistent object: remote schema "weather" could not be introspected: connection refused']);
    expect(calls).toEqual(['collections, 1 inconsistent before']);
  });
});
