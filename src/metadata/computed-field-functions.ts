/**
 * run_sql changes to the function behind a computed field, refused as the well-known
 * engine refuses them: overloading it or making it VOLATILE is not supported, and
 * dropping it (even to create another of the same name) breaks the field, which then
 * goes with `cascade` or fails the request.
 */
import type { DatabaseCatalog } from '../catalog/types.js';
import { badRequest } from '../errors/admin.js';
import { computedFieldFunction } from './computed-fields.js';
import { cannotDrop } from './dependencies.js';
import { sameTable, showTable } from './names.js';
import type { SourceMetadata } from './types.js';

export function checkComputedFieldFunctions(s: SourceMetadata, before: DatabaseCatalog, after: DatabaseCatalog, cascade: boolean): void {
  for (const entry of s.tables) {
    const table = JSON.stringify(showTable(entry.table));
    for (const field of entry.computed_fields ?? []) {
      const qf = computedFieldFunction(field);
      const old = before.functions.filter((f) => sameTable(f, qf));
      if (old.length !== 1) continue; // already inconsistent
      const fn = JSON.stringify(showTable(qf));
      const name = JSON.stringify(String(field.name));
      if (after.functions.filter((f) => sameTable(f, qf)).length > 1) {
        // The missing space before the field name is the well-known engine's.
        throw badRequest('not-supported', `The function ${fn} associated with computed field${name} of table ${table} is being overloaded`, '$.args');
      }
      const now = after.functions.find((f) => f.oid === old[0]!.oid);
      if (now?.volatility === 'volatile' && old[0]!.volatility !== 'volatile') {
        throw badRequest('not-supported', `The type of function ${fn} associated with computed field ${name} of table ${table} is being altered to "VOLATILE"`, '$.args');
      }
      if (now) continue;
      // Dropped: a function created in its place is a different one.
      if (!cascade) {
        throw cannotDrop([`computed field ${showTable(entry.table)}.${String(field.name)}`], '$.args');
      }
      entry.computed_fields = entry.computed_fields!.filter((f) => f !== field);
    }
  }
}
