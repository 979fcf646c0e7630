/**
 * The relationships the foreign keys between tracked tables suggest, both ways, as the
 * well-known console suggests them: an object relationship on the referencing table named after
 * the singular of the referenced table, an array relationship on the referenced table named
 * after the plural of the referencing one; a name taken by a column or a relationship falls back
 * to `<name>By<Columns>` (then a number).
 */
import type { Metadata, QualifiedTable, Relationship, TableEntry } from '../../../api/metadata';
import { qualifiedTable, sameTable, sourceOf, tableKey } from '../../../api/metadata';
import type { ForeignKey, TableColumns } from '../../../api/catalog';
import { pluralize, singularize } from './inflect';

export interface Suggestion {
  kind: 'object' | 'array';
  /** The table the relationship is added to. */
  table: QualifiedTable;
  name: string;
  to: QualifiedTable;
  /** [column of `table`, column of `to`] */
  mapping: [string, string][];
  using: Relationship['using'];
}

const camelize = (snake: string): string =>
  snake
    .split('_')
    .filter(Boolean)
    .map((w, i) => (i === 0 ? w[0]!.toLowerCase() + w.slice(1) : w[0]!.toUpperCase() + w.slice(1)))
    .join('');

/** The columns a `foreign_key_constraint_on` names, and the table for an array relationship. */
function fkColumns(on: unknown): { table?: QualifiedTable | string; columns: string[] } | null {
  if (typeof on === 'string') return { columns: [on] };
  if (Array.isArray(on)) return { columns: on.map(String) };
  if (on && typeof on === 'object') {
    const o = on as { table?: QualifiedTable | string; column?: string; columns?: string[] };
    return { table: o.table, columns: o.columns ?? (o.column ? [o.column] : []) };
  }
  return null;
}

const sameColumns = (a: string[], b: string[]) => a.length === b.length && a.every((c) => b.includes(c));

function hasObject(entry: TableEntry, fk: ForeignKey): boolean {
  return (entry.object_relationships ?? []).some((r) => {
    const on = fkColumns(r.using.foreign_key_constraint_on);
    return on !== null && sameColumns(on.columns, fk.columns);
  });
}

function hasArray(entry: TableEntry, fk: ForeignKey): boolean {
  return (entry.array_relationships ?? []).some((r) => {
    const on = fkColumns(r.using.foreign_key_constraint_on);
    const table = qualifiedTable(on?.table);
    return on !== null && table !== undefined && sameTable(table, fk.table) && sameColumns(on.columns, fk.columns);
  });
}

/** The suggestions of a source, or of one table (`only`), not yet added. */
export function suggestRelationships(m: Metadata | null, source: string, fks: ForeignKey[], columns: TableColumns[], only?: QualifiedTable): Suggestion[] {
  const tables = sourceOf(m, source)?.tables ?? [];
  const entryOf = (t: QualifiedTable) => tables.find((e) => sameTable(e.table, t));
  const taken = new Map<string, Set<string>>();
  const takenOn = (e: TableEntry) => {
    const key = tableKey(e.table);
    let set = taken.get(key);
    if (!set) {
      set = new Set([...(columns.find((c) => sameTable(c.table, e.table))?.columns ?? []), ...[...(e.object_relationships ?? []), ...(e.array_relationships ?? [])].map((r) => r.name)]);
      taken.set(key, set);
    }
    return set;
  };
  const name = (e: TableEntry, simple: string, columnsPart: string[]) => {
    const fields = takenOn(e);
    let n = simple;
    for (let i = 0; fields.has(n); i++) n = camelize(`${simple}_by_${columnsPart.join('_')}${i ? `_${i}` : ''}`);
    fields.add(n);
    return n;
  };
  const out: Suggestion[] = [];
  for (const fk of fks) {
    const from = entryOf(fk.table);
    const to = entryOf(fk.ref);
    if (!from || !to) continue;
    const mapping = fk.columns.map((c, i): [string, string] => [c, fk.refColumns[i]!]);
    if ((!only || sameTable(only, fk.table)) && !hasObject(from, fk)) {
      out.push({ kind: 'object', table: fk.table, to: fk.ref, mapping, name: name(from, singularize(fk.ref.name), fk.columns), using: { foreign_key_constraint_on: fk.columns.length === 1 ? fk.columns[0] : fk.columns } });
    }
    if ((!only || sameTable(only, fk.ref)) && !hasArray(to, fk)) {
      const on = fk.columns.length === 1 ? { table: fk.table, column: fk.columns[0] } : { table: fk.table, columns: fk.columns };
      out.push({ kind: 'array', table: fk.ref, to: fk.table, mapping: mapping.map(([a, b]) => [b, a]), name: name(to, pluralize(fk.table.name), fk.columns), using: { foreign_key_constraint_on: on } });
    }
  }
  return out;
}

/** The metadata call that adds a suggestion. */
export const addSuggestion = (source: string, s: Suggestion) => ({
  type: `pg_create_${s.kind}_relationship`,
  args: { source, table: s.table, name: s.name, using: s.using },
});
