/**
 * Catalog lookups for commands. Objects created outside run_sql are not in the cached
 * catalog yet, so a miss re-reads the source's catalog once before giving up.
 */
import type { CatalogFunction, DatabaseCatalog, CatalogTable, QualifiedName } from '../../../catalog/types.js';
import { sameTable } from '../../../metadata/names.js';
import type { SourceMetadata } from '../../../metadata/types.js';
import type { CommandContext } from './context.js';

async function lookup<T>(ctx: CommandContext, source: SourceMetadata, find: (c: DatabaseCatalog) => T | undefined): Promise<T | undefined> {
  const cached = ctx.introspection(source.name);
  const found = cached && find(cached);
  if (found) return found;
  await ctx.reloadSources([source.name]);
  const fresh = ctx.introspection(source.name);
  return fresh && find(fresh);
}

export const catalogTable = (ctx: CommandContext, source: SourceMetadata, table: QualifiedName): Promise<CatalogTable | undefined> =>
  lookup(ctx, source, (c) => c.tables.find((t) => sameTable(t, table)));

export const catalogFunction = (ctx: CommandContext, source: SourceMetadata, fn: QualifiedName): Promise<CatalogFunction | undefined> =>
  lookup(ctx, source, (c) => c.functions.find((f) => sameTable(f, fn)));
