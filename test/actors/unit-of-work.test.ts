/**
 * The unit of work alone, over a catalog made by hand (no database: its sources are a stand-in
 * that holds the catalog): a command's change is resolved, and what it does with the
 * inconsistencies the new document has follows its `consistency` mode, nothing kept on failure.
 */
import { describe, expect, it } from 'vitest';
import type { Command } from '../../src/actors/metadata/commands/context.js';
import { DocumentResolver } from '../../src/actors/metadata/document-resolver.js';
import { RemoteManager } from '../../src/actors/metadata/remotes.js';
import type { SourceManager } from '../../src/actors/metadata/sources.js';
import { UnitOfWork } from '../../src/actors/metadata/unit-of-work.js';
import { backendFor, loadEveryBackend } from '../../src/backends/registry.js';
import type { CatalogColumn, CatalogTable, DatabaseCatalog } from '../../src/catalog/types.js';
import { ApiError } from '../../src/errors/admin.js';
import { parseMetadataDocument } from '../../src/metadata/document.js';
import type { SourceCatalog } from '../../src/metadata/resolve/types.js';
import { emptyMetadata, type Metadata } from '../../src/metadata/types.js';
import { deepFreeze } from '../../src/util/draft.js';
import { pgType } from '../support/pg-types.js';

await loadEveryBackend();

const column = (name: string, position: number): CatalogColumn => ({ name, position, nullable: false, default: null, isIdentity: false, isGenerated: false, comment: null, type: pgType('int4', 'integer') });
const table = (oid: number, name: string, columns: string[]): CatalogTable => ({
  oid, schema: 'public', name, kind: 'table', comment: null, columns: columns.map((c, i) => column(c, i + 1)), primaryKey: { name: `${name}_pkey`, columns: ['id'] },
  uniqueConstraints: [], foreignKeys: [], constraintNames: [`${name}_pkey`], insertable: true, updatable: true, deletable: true,
});
const catalog: DatabaseCatalog = { serverVersion: 150000, tables: [table(1, 'author', ['id']), table(2, 'article', ['id', 'author_id'])], functions: [], enumTypes: [], baseTypes: [] };

/** The sources as the unit of work reads them: the catalog above, nothing to connect. */
const sources = {
  sync: async () => {},
  catalogs: () => new Map<string, SourceCatalog>([['default', { introspection: catalog, error: null }]]),
  connection: () => null,
  setIntrospection: () => {},
} as unknown as SourceManager;

const articleToAuthor = { name: 'author', using: { manual_configuration: { remote_table: { schema: 'public', name: 'author' }, column_mapping: { author_id: 'id' } } } };

function documentOf(tables: object[]): Metadata {
  const doc = { version: 3, sources: [{ name: 'default', kind: 'postgres', configuration: { connection_info: { database_url: 'postgres://x' } }, tables }] };
  return deepFreeze(parseMetadataDocument(doc, '$', emptyMetadata(), backendFor));
}

function unitOver(metadata: Metadata): UnitOfWork {
  const resolver = new DocumentResolver();
  const inconsistencies = resolver.resolve(metadata, sources.catalogs(), new Map()).inconsistencies;
  return new UnitOfWork({ sources, remotes: new RemoteManager(), endpoint: 'v1/metadata', session: { 'x-service-role': 'admin' }, metadata, inconsistencies, resourceVersion: 1, catalogQuery: async () => [], remoteSchemaPermissions: false, resolver });
}

const tracked = (m: Metadata) => m.sources[0]!.tables.map((t) => `${t.table.name}${t.object_relationships?.length ? ` -> ${t.object_relationships.map((r) => r.name).join(',')}` : ''}`);

/** Untracks `author` (under which article's relationship breaks) in the given mode. */
const untrackAuthor = (consistency?: 'refuse-new' | 'refuse-any' | 'cascade' | 'allow'): Command => (ctx) => {
  ctx.metadata.sources[0]!.tables = ctx.metadata.sources[0]!.tables.filter((t) => t.table.name !== 'author');
  return { metadata: ctx.metadata, response: { message: 'success' }, ...(consistency ? { consistency } : {}) };
};

describe('a unit of work', () => {
  const start = documentOf([{ table: { schema: 'public', name: 'author' } }, { table: { schema: 'public', name: 'article' }, object_relationships: [articleToAuthor] }]);

  it('refuses a change that leaves a new inconsistency (refuse-new), keeping the metadata it had', async () => {
    const uow = unitOver(start);
    const failure = await uow.apply(untrackAuthor(), {}, '$.args').catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).body()).toMatchObject({ code: 'invalid-configuration', error: expect.stringContaining('"author" is not tracked') });
    expect(uow.metadata).toBe(start);
  });

  it('removes what the change broke (cascade), or keeps it and reports it (allow)', async () => {
    const cascaded = unitOver(start);
    await cascaded.apply(untrackAuthor('cascade'), {}, '$.args');
    expect(tracked(cascaded.metadata)).toEqual(['article']);
    expect(cascaded.inconsistencies).toEqual([]);

    const allowed = unitOver(start);
    await allowed.apply(untrackAuthor('allow'), {}, '$.args');
    expect(tracked(allowed.metadata)).toEqual(['article -> author']);
    expect(allowed.inconsistencies.map((i) => i.object.name)).toEqual(['object_relation author in table article in source default']);
  });

  it('lets a change through an inconsistency the state had (refuse-new), not under refuse-any', async () => {
    const broken = documentOf([{ table: { schema: 'public', name: 'article' }, object_relationships: [articleToAuthor] }]);
    const comment: Command = (ctx) => {
      ctx.metadata.sources[0]!.tables[0]!.comment = 'articles';
      return { metadata: ctx.metadata, response: { message: 'success' } };
    };
    const uow = unitOver(broken);
    await uow.apply(comment, {}, '$.args');
    expect(uow.metadata.sources[0]!.tables[0]!.comment).toBe('articles');
    const strict: Command = async (ctx, args, path) => ({ ...(await comment(ctx, args, path)), consistency: 'refuse-any' });
    await expect(unitOver(broken).apply(strict, {}, '$.args')).rejects.toBeInstanceOf(ApiError);
  });
});
