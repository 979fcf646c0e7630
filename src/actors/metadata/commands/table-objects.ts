/**
 * What the commands on a table's relationships, computed fields and permissions share:
 * finding the tracked table, the resolved view of its source (for checks against the
 * catalog), name clashes, and keeping the stored lists in export order.
 */
import type { QualifiedName } from '../../../catalog/types.js';
import { ApiError } from '../../../errors/admin.js';
import { str, type JsonObject, type ObjectReader } from '../../../util/decode.js';
import { unchanged } from '../../../util/draft.js';
import { findSource, findTable } from '../../../metadata/lookup.js';
import { sameTable, showTable, tableName } from '../../../metadata/names.js';
import { resolveSourceFields } from '../../../metadata/resolve.js';
import { TABLE_OBJECT_LISTS, type TableObjectList } from '../../../metadata/resolve/objects.js';
import type { ResolvedSource } from '../../../metadata/resolve/types.js';
import type { SourceMetadata, TableMetadata } from '../../../metadata/types.js';
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

/** The source as resolution sees it now (columns, consistent relationships and computed fields; permissions not checked). */
export function resolvedSource(ctx: CommandContext, source: string): ResolvedSource | undefined {
  // The committed source when this request has not changed it yet: its resolution is kept.
  const s = unchanged(ctx.metadata.sources.find((x) => x.name === source));
  const introspection = ctx.introspection(source);
  return s && introspection ? resolveSourceFields(s, introspection, ctx.resolveMemo) : undefined;
}

/**
 * Objects created outside run_sql are not in the cached catalog yet: when the new
 * object does not resolve, the source's catalog is read again (once) before the
 * change is judged.
 */
export async function refreshUnlessResolved(ctx: CommandContext, source: string, resolves: (s: ResolvedSource | undefined) => boolean): Promise<void> {
  if (!resolves(resolvedSource(ctx, source))) await ctx.reloadSources([source]);
}

/** Whether the table has a column of that name, as the catalog has it. */
export function hasColumn(ctx: CommandContext, target: TableTarget, name: string): boolean {
  const table = ctx.introspection(target.source.name)?.tables.find((t) => sameTable(t, target.table));
  return table?.columns.some((c) => c.name === name) ?? false;
}

/** Whether the table has a relationship or computed field of that name. */
export function hasNamedField(entry: TableMetadata, name: string): boolean {
  return [entry.object_relationships, entry.array_relationships, entry.computed_fields].some((list) => (list ?? []).some((o) => o.name === name));
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
