/** A relationship's join: which columns of the table match which of the target (from `using`). */
import type { PgIntrospection, PgTable, QualifiedName } from '../backends/pg/catalog.js';
import { isObject, type JsonObject } from '../util/decode.js';
import { sameTable } from '../metadata/names.js';

export interface RelationshipJoin {
  target: QualifiedName;
  /** Pairs [column of this table, column of the target]. */
  mapping: [string, string][];
}

function asTable(v: unknown): QualifiedName | null {
  if (typeof v === 'string') return { schema: 'public', name: v };
  if (isObject(v) && typeof v.name === 'string') return { schema: typeof v.schema === 'string' ? v.schema : 'public', name: v.name };
  return null;
}

const asColumns = (v: unknown): string[] | null =>
  typeof v === 'string' ? [v] : Array.isArray(v) && v.every((c) => typeof c === 'string') ? (v as string[]) : null;

/** Null when the join cannot be made from the catalog (the relationship is then inconsistent). */
export function relationshipJoin(catalog: PgIntrospection, table: PgTable, rel: JsonObject): RelationshipJoin | null {
  const using = isObject(rel.using) ? rel.using : null;
  if (!using) return null;
  if (isObject(using.manual_configuration)) {
    const m = using.manual_configuration;
    const target = asTable(m.remote_table);
    if (!target || !isObject(m.column_mapping)) return null;
    return { target, mapping: Object.entries(m.column_mapping).map(([a, b]) => [a, String(b)]) };
  }
  const fk = using.foreign_key_constraint_on;
  const localColumns = asColumns(fk);
  if (localColumns) {
    // Object relationship through a foreign key of this table.
    const c = table.foreignKeys.find((f) => f.columns.length === localColumns.length && localColumns.every((x) => f.columns.includes(x)));
    if (!c) return null;
    return { target: c.refTable, mapping: c.columns.map((col, i) => [c.refColumns[i]!, col]).map(([r, l]) => [l!, r!]) };
  }
  if (isObject(fk)) {
    // Through a foreign key of the other table pointing at this one.
    const target = asTable(fk.table);
    const remoteColumns = asColumns(fk.columns ?? fk.column);
    if (!target || !remoteColumns) return null;
    const remote = catalog.tables.find((t) => sameTable(t, target));
    const c = remote?.foreignKeys.find(
      (f) => sameTable(f.refTable, table) && f.columns.length === remoteColumns.length && remoteColumns.every((x) => f.columns.includes(x)),
    );
    if (!c) return null;
    return { target, mapping: c.columns.map((col, i) => [c.refColumns[i]!, col]) };
  }
  return null;
}
