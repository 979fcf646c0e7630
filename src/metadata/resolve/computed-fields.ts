/** Stage 4: each computed field's function exists and fits the table (see computed-fields.ts). */
import { qualifiedKey } from '../../catalog/types.js';
import { ComputedFieldError, resolveComputedField } from '../computed-fields.js';
import { tableObjectContext, tableObjectInconsistency, unresolvable, type TableObjectRef } from './objects.js';
import type { Inconsistency, ResolvedSource } from './types.js';

export function resolveComputedFields(source: ResolvedSource): Inconsistency[] {
  const out: Inconsistency[] = [];
  for (const table of source.tables.values()) {
    const scope = { table: table.name, catalog: source.introspection, isTracked: (t: typeof table.name) => source.tables.has(qualifiedKey(t)) };
    for (const stored of table.entry.computed_fields ?? []) {
      const name = String(stored.name);
      const ref: TableObjectRef = { source: source.name, table: table.name, list: 'computed_fields', type: 'computed_field', name, stored };
      if (table.columns.has(name)) {
        out.push(tableObjectInconsistency(ref, 'field definition conflicts with postgres column'));
        continue;
      }
      if (table.relationships.has(name) || table.computedFields.has(name)) {
        out.push(tableObjectInconsistency(ref, `conflicting definitions for field ${JSON.stringify(name)}`));
        continue;
      }
      try {
        table.computedFields.set(name, resolveComputedField(stored, scope));
      } catch (e) {
        out.push(tableObjectInconsistency(ref, tableObjectContext(table.name, 'computed field', name) + unresolvable(e, ComputedFieldError)));
      }
    }
  }
  return out;
}
