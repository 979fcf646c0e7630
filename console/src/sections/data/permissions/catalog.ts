/**
 * The database's side of what the permission editor offers: each table's columns with their
 * types, the foreign keys that tell where an object relationship leads, and what the functions
 * of computed fields return, read from the source's catalog (`api/catalog`).
 */
import { readComputedFieldFunctions, readForeignKeys, readTableColumns, type ForeignKey, type TypedColumn } from '../../../api/catalog';
import { qualifiedTable, sameTable, tableKey, type QualifiedTable, type Relationship, type TableEntry } from '../../../api/metadata';
import { useLoad } from '../../../ui/useLoad';

export interface Catalog {
  columnsOf(table: QualifiedTable): TypedColumn[];
  /** The scalar computed fields of a tracked table, typed as their function returns (those returning rows are left out). */
  scalarComputedFields(entry: TableEntry | undefined): TypedColumn[];
  /** The table a relationship of `table` leads to, when it can be told. */
  targetOf(table: QualifiedTable, relationship: Relationship): QualifiedTable | undefined;
}

async function readCatalog(source: string): Promise<Catalog> {
  const [tables, foreignKeys, functionList] = await Promise.all([readTableColumns(source), readForeignKeys(source), readComputedFieldFunctions(source)]);
  const columns = new Map(tables.map((t) => [tableKey(t.table), t.columns]));
  // Overloaded functions share a name: the first one read stands for them all.
  const functions = new Map<string, (typeof functionList)[number]>();
  for (const f of functionList) if (!functions.has(tableKey(f))) functions.set(tableKey(f), f);
  return {
    columnsOf: (table) => columns.get(tableKey(table)) ?? [],
    scalarComputedFields: (entry) =>
      (entry?.computed_fields ?? []).flatMap((cf) => {
        const fn = qualifiedTable((cf.definition as { function?: unknown } | null)?.function);
        const returned = fn && functions.get(tableKey(fn));
        return returned && !returned.returnsRows ? [{ name: cf.name, type: returned.type, category: returned.category, typeName: returned.typeName }] : [];
      }),
    targetOf: (table, relationship) => relationshipTarget(table, relationship, foreignKeys),
  };
}

function relationshipTarget(table: QualifiedTable, relationship: Relationship, foreignKeys: ForeignKey[]): QualifiedTable | undefined {
  const { foreign_key_constraint_on: fk, manual_configuration: manual } = relationship.using;
  if (manual) return qualifiedTable((manual as { remote_table?: unknown }).remote_table);
  // An array relationship, or an object one through the other table's key: `{table, columns}`.
  if (typeof fk === 'object' && fk !== null && !Array.isArray(fk)) return qualifiedTable((fk as { table?: unknown }).table);
  const own = typeof fk === 'string' ? [fk] : Array.isArray(fk) ? (fk as string[]) : [];
  const found = foreignKeys.find((f) => sameTable(f.table, table) && f.columns.length === own.length && f.columns.every((c, i) => c === own[i]));
  return found?.ref;
}

export const relationshipsOf = (entry: TableEntry | undefined): Relationship[] => [...(entry?.object_relationships ?? []), ...(entry?.array_relationships ?? [])];

/** The source's catalog, read when the tab opens. */
export const useCatalog = (source: string) => useLoad(() => readCatalog(source), [source]);
