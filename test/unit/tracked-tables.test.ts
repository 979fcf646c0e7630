/** A snapshot's tracked tables start from the previous snapshot's where resolution and naming are unchanged. */
import { describe, expect, it } from 'vitest';
import { loadEveryBackend, backendFor } from '../../src/backends/registry.js';
import type { CatalogColumn, CatalogTable, DatabaseCatalog } from '../../src/catalog/types.js';
import { parseMetadataDocument } from '../../src/metadata/document.js';
import { resolveMetadata } from '../../src/metadata/resolve.js';
import { ResolveMemo } from '../../src/metadata/resolve/memo.js';
import { emptyMetadata, type Metadata } from '../../src/metadata/types.js';
import type { MetadataSnapshot } from '../../src/protocol/snapshot.js';
import { TrackedTables } from '../../src/schema/tracked-tables.js';
import { deepFreeze, produce } from '../../src/util/draft.js';
import { pgType } from '../support/pg-types.js';

await loadEveryBackend();

const column = (name: string, position: number): CatalogColumn => ({
  name, position, nullable: false, default: null, isIdentity: false, isGenerated: false, comment: null, type: pgType('int4', 'integer'),
});
const table = (oid: number, name: string): CatalogTable => ({
  oid, schema: 'public', name, kind: 'table', comment: null, columns: [column('id', 1), column('owner', 2)],
  primaryKey: { name: `${name}_pkey`, columns: ['id'] }, uniqueConstraints: [], foreignKeys: [], constraintNames: [`${name}_pkey`], insertable: true, updatable: true, deletable: true,
});
const catalog: DatabaseCatalog = { serverVersion: 160000, tables: [table(1, 'article'), table(2, 'author')], functions: [], enumTypes: [], baseTypes: [] };
const select = (role: string) => ({ role, permission: { columns: ['id'], filter: {} } });

const first = deepFreeze(
  parseMetadataDocument(
    {
      version: 3,
      sources: [{ name: 'default', kind: 'postgres', configuration: { connection_info: { database_url: 'postgres://x' } }, tables: ['article', 'author'].map((name) => ({ table: { schema: 'public', name }, select_permissions: [select('user')] })) }],
    },
    '$',
    emptyMetadata(),
    backendFor,
  ),
);

function trackedOf(metadata: Metadata, memo: ResolveMemo, previous: TrackedTables | null): TrackedTables {
  const snapshot: MetadataSnapshot = { version: 1, generation: 1, metadata, sources: { default: { kind: 'postgres', introspection: catalog, defaultSchema: 'public' } }, inconsistencies: [], remotes: {}, remoteSchemaPermissions: false };
  return new TrackedTables(snapshot, resolveMetadata(metadata, new Map([['default', { introspection: catalog, error: null }]]), memo), previous);
}

describe('tracked tables across snapshots', () => {
  it('keeps a table not changed whole while its source settings are the same; makes a changed one again', () => {
    const memo = new ResolveMemo();
    const before = trackedOf(first, memo, null);
    const second = produce(first, (d) => void d.sources[0]!.tables[0]!.select_permissions!.push(select('editor')));
    const after = trackedOf(second, memo, before);
    const [article0, author0] = before.sources[0]!.tables;
    const [article1, author1] = after.sources[0]!.tables;
    expect(author1!.columns).toBe(author0!.columns);
    expect(author1!.identity.texts).toBe(author0!.identity.texts);
    // Its identity holds the source's settings, not the table list the change made new.
    expect(author1).toBe(author0);
    expect(author1!.identity.source.name).toBe('default');
    expect(author1!.identity.source.tables).toEqual([]);
    expect(article1!.columns).not.toBe(article0!.columns);
    expect(article1!.resolved.permissions.select.has('editor')).toBe(true);
  });

  it('gives the tables it keeps the source\'s new settings (a function tracked)', () => {
    const memo = new ResolveMemo();
    const before = trackedOf(first, memo, null);
    const functions = [{ function: { schema: 'public', name: 'search' } }];
    const after = trackedOf(produce(first, (d) => void (d.sources[0]!.functions = functions)), memo, before);
    const [kept, was] = [after.sources[0]!.tables[1]!, before.sources[0]!.tables[1]!];
    expect(kept.columns).toBe(was.columns);
    expect(kept.identity.source.functions).toEqual(functions);
    expect(was.identity.source.functions ?? []).toEqual([]);
  });

  it('makes every table again when the source is named otherwise', () => {
    const memo = new ResolveMemo();
    const before = trackedOf(first, memo, null);
    const renamed = produce(first, (d) => void (d.sources[0]!.customization = { type_names: { prefix: 'my_' } }));
    const after = trackedOf(renamed, memo, before);
    expect(after.sources[0]!.tables.map((t) => t.identity.texts.object.name)).toEqual(['my_article', 'my_author']);
    expect(after.sources[0]!.tables[1]!.columns).not.toBe(before.sources[0]!.tables[1]!.columns);
  });
});
