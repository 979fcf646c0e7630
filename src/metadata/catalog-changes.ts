/**
 * Carries DDL done through run_sql into the metadata, as the well-known engine does:
 * a renamed table or column is renamed in the metadata and in everything that names
 * it (tables are followed by oid, columns by position); a dropped table is untracked.
 * Some changes are refused outright: a new type for a column that a permission
 * compares with a fixed value, and changes to the function behind a computed field
 * (see computed-field-functions.ts). Whatever else breaks shows up as an inconsistency.
 */
import { qualifiedKey, type DatabaseCatalog, type CatalogTable } from '../catalog/types.js';
import { badRequest } from '../errors/admin.js';
import { checkComputedFieldFunctions } from './computed-field-functions.js';
import { sameTable, showTable } from './names.js';
import { carryRenames, noRenames, type Renames } from './renames.js';
import { staticComparisonDependents } from './type-dependents.js';
import type { Metadata } from './types.js';

interface TypeChange {
  table: CatalogTable;
  column: string;
}

interface CatalogDiff {
  renames: Renames;
  dropped: CatalogTable[];
  typeChanges: TypeChange[];
}

function diffTrackedTables(m: Metadata, source: string, before: DatabaseCatalog, after: DatabaseCatalog): CatalogDiff {
  const diff: CatalogDiff = { renames: noRenames(), dropped: [], typeChanges: [] };
  const byOid = new Map(after.tables.map((t) => [t.oid, t]));
  for (const entry of m.sources.find((s) => s.name === source)?.tables ?? []) {
    const old = before.tables.find((t) => sameTable(t, entry.table));
    if (!old) continue; // was already missing: stays inconsistent
    const now = byOid.get(old.oid);
    if (!now) {
      diff.dropped.push(old);
      continue;
    }
    const key = qualifiedKey(old);
    if (!sameTable(now, old)) diff.renames.tables.set(key, { schema: now.schema, name: now.name });
    const columns = new Map<string, string>();
    for (const c of old.columns) {
      const same = now.columns.find((x) => x.position === c.position);
      if (same && same.name !== c.name) columns.set(c.name, same.name);
      else if (same && same.type.display !== c.type.display) diff.typeChanges.push({ table: old, column: c.name });
    }
    if (columns.size > 0) diff.renames.columns.set(key, columns);
  }
  return diff;
}

/** A column compared with a fixed value by a permission may not change type (the value was checked against the old one). */
function refuseTypeChanges(m: Metadata, source: string, before: DatabaseCatalog, changes: TypeChange[]): void {
  for (const { table, column } of changes) {
    const dependents = staticComparisonDependents(m, source, before, table, column);
    if (dependents.length > 0) {
      throw badRequest(
        'dependency-error',
        `cannot change type of column ${JSON.stringify(column)} in table ${JSON.stringify(showTable(table))} because of the following dependencies : ${dependents.join(', ')}`,
        '$.args',
      );
    }
  }
}

/** Applies the changes between two catalogs of `source` to the draft; throws when a change is refused. */
export function applyCatalogChanges(m: Metadata, source: string, before: DatabaseCatalog, after: DatabaseCatalog, cascade = false): void {
  const s = m.sources.find((x) => x.name === source);
  if (!s) return;
  const diff = diffTrackedTables(m, source, before, after);
  refuseTypeChanges(m, source, before, diff.typeChanges);
  checkComputedFieldFunctions(s, before, after, cascade);
  carryRenames(m, source, before, diff.renames);
  s.tables = s.tables.filter((entry) => !diff.dropped.some((t) => sameTable(t, entry.table)));
  for (const entry of s.tables) {
    const renamed = diff.renames.tables.get(qualifiedKey(entry.table));
    if (renamed) entry.table = renamed;
  }
}
