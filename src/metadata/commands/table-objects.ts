/**
 * What the commands on a table's relationships, computed fields and permissions share:
 * finding the tracked table, the resolved view of its source (for checks against the
 * catalog), keeping the stored lists in export order, and the error when the change
 * leaves the object itself (or something else) inconsistent.
 */
import type { QualifiedName } from '../../backends/pg/catalog.js';
import { ApiError } from '../../protocol/errors.js';
import { str, type JsonObject, type ObjectReader } from '../../util/decode.js';
import { findSource, findTable } from '../lookup.js';
import { showTable, tableName } from '../names.js';
import { resolveMetadata, type SourceCatalog } from '../resolve.js';
import { TABLE_OBJECT_LISTS, type TableObjectList } from '../resolve/objects.js';
import type { ResolvedSource } from '../resolve/types.js';
import type { SourceMetadata, TableMetadata } from '../types.js';
import type { CommandContext } from './context.js';

export interface TableTarget {
  source: SourceMetadata;
  table: QualifiedName;
  entry: TableMetadata;
}

export interface TableArgs {
  source: string;
  table: QualifiedName;
  /** Where the arguments were read (for errors about them). */
  reader: ObjectReader;
}

/** `source` (default `default`) and `table`; they are looked up once all arguments are read. */
export function readTableArgs(r: ObjectReader): TableArgs {
  return { source: r.withDefault('source', str, 'default'), table: r.required('table', tableName), reader: r };
}

/** The tracked table the arguments name. */
export function tableTarget(ctx: CommandContext, a: TableArgs): TableTarget {
  const source = findSource(ctx.metadata, a.source, a.reader.path);
  return { source, table: a.table, entry: findTable(source, a.table, a.reader.at('table')) };
}

/** The source as resolution sees it now (columns, consistent relationships and computed fields). */
export function resolvedSource(ctx: CommandContext, source: string): ResolvedSource | undefined {
  const catalogs = new Map<string, SourceCatalog>(
    ctx.metadata.sources.map((s) => [s.name, { introspection: ctx.introspection(s.name) ?? null, error: ctx.sourceError(s.name) ?? null }]),
  );
  return resolveMetadata(ctx.metadata, catalogs).sources.get(source);
}

/**
 * Objects created outside run_sql are not in the cached catalog yet: when the new
 * object does not resolve, the source's catalog is read again (once) before the
 * change is judged.
 */
export async function refreshUnlessResolved(ctx: CommandContext, source: string, resolves: (s: ResolvedSource | undefined) => boolean): Promise<void> {
  if (!resolves(resolvedSource(ctx, source))) await ctx.reloadSources([source]);
}

/** Whether the table has a column, relationship or computed field of that name. */
export function hasField(ctx: CommandContext, target: TableTarget, name: string): boolean {
  const pg = ctx.introspection(target.source.name)?.tables.find((t) => t.schema === target.table.schema && t.name === target.table.name);
  const named = (list: JsonObject[] | undefined) => (list ?? []).some((o) => o.name === name);
  return (
    (pg?.columns.some((c) => c.name === name) ?? false) ||
    named(target.entry.object_relationships) ||
    named(target.entry.array_relationships) ||
    named(target.entry.computed_fields)
  );
}

export function fieldExistsError(name: string, table: QualifiedName, path: string): ApiError {
  return new ApiError(400, 'already-exists', `field with name ${JSON.stringify(name)} already exists in table ${JSON.stringify(showTable(table))}`, path);
}

/** Adds or replaces a named object in one of the table's lists, kept sorted by name as exported. */
export function putTableObject(entry: TableMetadata, list: TableObjectList, item: JsonObject): void {
  const key = TABLE_OBJECT_LISTS[list];
  const items = (entry[list] ?? []).filter((o) => o[key] !== item[key]);
  items.push(item);
  items.sort((a, b) => (String(a[key]) < String(b[key]) ? -1 : 1));
  entry[list] = items;
}
