/** Roles given the same permissions share one role model and one schema; each keeps its name. */
import { describe, expect, it } from 'vitest';
import { RoleSchemas } from '../../src/actors/schema-builder/role-schemas.js';
import { loadEveryBackend, backendFor } from '../../src/backends/registry.js';
import type { CatalogColumn, CatalogTable, DatabaseCatalog } from '../../src/catalog/types.js';
import { parseMetadataDocument } from '../../src/metadata/document.js';
import { emptyMetadata } from '../../src/metadata/types.js';
import type { MetadataSnapshot } from '../../src/protocol/snapshot.js';
import { pgType } from '../support/pg-types.js';

// The backends a thread uses are loaded first (backends/registry.ts).
await loadEveryBackend();

const column = (name: string, position: number, type: 'int4' | 'text'): CatalogColumn => ({
  name, position, nullable: false, default: null, isIdentity: false, isGenerated: false, comment: null,
  type: pgType(type, type === 'int4' ? 'integer' : 'text'),
});
const article: CatalogTable = {
  oid: 1, schema: 'public', name: 'article', kind: 'table', comment: null, columns: [column('id', 1, 'int4'), column('title', 2, 'text'), column('owner', 3, 'int4')],
  primaryKey: { name: 'article_pkey', columns: ['id'] }, uniqueConstraints: [], foreignKeys: [], constraintNames: ['article_pkey'], insertable: true, updatable: true, deletable: true,
};
const catalog: DatabaseCatalog = { serverVersion: 160000, tables: [article], functions: [], enumTypes: [], baseTypes: [] };

const own = { owner: { _eq: 'X-Service-User-Id' } };
const select = (role: string, columns: string[], filter: object = own) => ({ role, permission: { columns, filter } });

function schemasOf(selectPermissions: object[]): RoleSchemas {
  const document = { version: 3, sources: [{ name: 'default', kind: 'postgres', configuration: { connection_info: { database_url: 'postgres://x' } }, tables: [{ table: { schema: 'public', name: 'article' }, select_permissions: selectPermissions }] }] };
  const metadata = parseMetadataDocument(document, '$', emptyMetadata(), backendFor);
  const snapshot: MetadataSnapshot = { version: 1, generation: 1, metadata, sources: { default: { kind: 'postgres', introspection: catalog, defaultSchema: 'public' } }, inconsistencies: [], remotes: {}, remoteSchemaPermissions: false };
  const schemas = new RoleSchemas();
  schemas.use(1, () => snapshot);
  return schemas;
}

describe('role models', () => {
  it('is one model and one schema for the roles given the same permissions word for word', () => {
    const schemas = schemasOf([select('editor', ['id', 'title']), select('user', ['id', 'title']), select('viewer', ['id'])]);
    const [user, editor, viewer] = ['user', 'editor', 'viewer'].map((r) => schemas.get(r, false));
    expect(user!.model.tables).toBe(editor!.model.tables);
    expect(user!.schema).toBe(editor!.schema);
    expect([user!.role, user!.model.role, editor!.role, editor!.model.role]).toEqual(['user', 'user', 'editor', 'editor']);
    expect(viewer!.model.tables).not.toBe(user!.model.tables);
    expect([...viewer!.model.tables.values()][0]!.columns.map((c) => c.column.name)).toEqual(['id']);
  });

  it('is a model of its own for a role whose filter differs, even with the same schema', () => {
    const schemas = schemasOf([select('a', ['id']), select('b', ['id'], { id: { _gt: 0 } })]);
    const [a, b] = ['a', 'b'].map((r) => schemas.get(r, false));
    // Filters do not show in a schema (schema-shape.ts): one schema, two models, two filters.
    expect(a!.schema).toBe(b!.schema);
    expect(a!.model.tables).not.toBe(b!.model.tables);
    expect([...b!.model.tables.values()][0]!.permission.filter).not.toEqual([...a!.model.tables.values()][0]!.permission.filter);
  });
});

describe('a staged snapshot', () => {
  const snapshotOf = (generation: number, selectPermissions: object[]): MetadataSnapshot => {
    const document = { version: 3, sources: [{ name: 'default', kind: 'postgres', configuration: { connection_info: { database_url: 'postgres://x' } }, tables: [{ table: { schema: 'public', name: 'article' }, select_permissions: selectPermissions }] }] };
    const metadata = parseMetadataDocument(document, '$', emptyMetadata(), backendFor);
    return { version: generation, generation, metadata, sources: { default: { kind: 'postgres', introspection: catalog, defaultSchema: 'public' } }, inconsistencies: [], remotes: {}, remoteSchemaPermissions: false };
  };

  it('is taken in ahead and used as made when its generation is published; the current one serves until then', () => {
    const schemas = new RoleSchemas();
    schemas.use(1, () => snapshotOf(1, [select('user', ['id'])]));
    const next = snapshotOf(2, [select('user', ['id', 'title'])]);
    schemas.stage(next);
    // Requests of the current generation keep its schemas.
    expect(schemas.use(1, () => { throw new Error('not loaded again'); }).snapshot.generation).toBe(1);
    expect([...schemas.get('user', false).model.tables.values()][0]!.columns.map((c) => c.column.name)).toEqual(['id']);
    const tracked = schemas.use(2, () => next);
    expect(tracked.snapshot).toBe(next);
    expect([...schemas.get('user', false).model.tables.values()][0]!.columns.map((c) => c.column.name)).toEqual(['id', 'title']);
  });

  it('is not taken for another snapshot of its generation, nor once dropped', () => {
    const schemas = new RoleSchemas();
    schemas.use(1, () => snapshotOf(1, [select('user', ['id'])]));
    schemas.stage(snapshotOf(2, [select('user', ['id', 'title'])]));
    const other = snapshotOf(2, [select('user', ['title'])]);
    expect(schemas.use(2, () => other).snapshot).toBe(other);
    expect([...schemas.get('user', false).model.tables.values()][0]!.columns.map((c) => c.column.name)).toEqual(['title']);
    schemas.stage(snapshotOf(3, [select('user', ['id', 'title'])]));
    schemas.unstage();
    const third = snapshotOf(3, [select('user', ['owner'])]);
    schemas.use(3, () => third);
    expect([...schemas.get('user', false).model.tables.values()][0]!.columns.map((c) => c.column.name)).toEqual(['owner']);
  });
});
