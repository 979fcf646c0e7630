/** Stage 5: each permission is checked against its table; its boolean expressions are parsed. */
import { qualifiedKey } from '../../backends/pg/catalog.js';
import { ApiError } from '../../protocol/errors.js';
import type { JsonObject } from '../../util/decode.js';
import type { BoolExpScope } from '../boolexp.js';
import { resolvePermission } from '../permissions.js';
import { tableObjectContext, tableObjectInconsistency, unresolvable, type TableObjectRef } from './objects.js';
import { PERMISSION_KINDS, type Inconsistency, type ResolvedSource } from './types.js';

export function boolExpScope(source: ResolvedSource): BoolExpScope {
  return { source: source.name, table: (name) => source.tables.get(qualifiedKey(name)) };
}

export function resolvePermissions(source: ResolvedSource): Inconsistency[] {
  const out: Inconsistency[] = [];
  const scope = boolExpScope(source);
  for (const table of source.tables.values()) {
    for (const kind of PERMISSION_KINDS) {
      for (const stored of table.entry[`${kind}_permissions`] ?? []) {
        const role = String(stored.role);
        const ref: TableObjectRef = { source: source.name, table: table.name, list: `${kind}_permissions`, type: `${kind}_permission`, name: role, stored };
        const context = tableObjectContext(table.name, 'permission for role', role);
        if (role === 'admin') {
          out.push(tableObjectInconsistency(ref, `${context}cannot define permission for admin role`));
          continue;
        }
        try {
          table.permissions[kind].set(role, resolvePermission(kind, role, stored.permission as JsonObject, table, scope, '$.permission'));
        } catch (e) {
          out.push(tableObjectInconsistency(ref, context + unresolvable(e, ApiError)));
        }
      }
    }
  }
  return out;
}
