/**
 * Stage 5: each permission is checked against its table; its boolean expressions are parsed.
 *
 * Permissions are by far the most numerous objects (44,000 at 1,000 tables × 11 roles) and
 * most changes touch one of them. What a permission's check reads besides the permission
 * itself is its source's shape: the catalog and every tracked table's relationships and
 * computed fields. Committed metadata is frozen and shared between versions, so while that
 * shape stays the same, a permission object that is the same object as last time resolves
 * as it did then and is not checked again.
 */
import { qualifiedKey } from '../../backends/pg/catalog.js';
import { ApiError } from '../../protocol/errors.js';
import type { JsonObject } from '../../util/decode.js';
import type { BoolExpScope } from '../boolexp.js';
import { resolvePermission } from '../permissions.js';
import { tableObjectContext, tableObjectInconsistency, unresolvable, type TableObjectRef } from './objects.js';
import { PERMISSION_KINDS, type Inconsistency, type ResolvedPermission, type ResolvedSource } from './types.js';

export function boolExpScope(source: ResolvedSource): BoolExpScope {
  return { source: source.name, table: (name) => source.tables.get(qualifiedKey(name)) };
}

/** The last shape seen per source: the parts it is made of, and a token that stands for them. */
const shapes = new Map<string, { parts: unknown[]; token: object }>();
const checked = new WeakMap<JsonObject, { shape: object; result: ResolvedPermission | ApiError }>();

/** A token that is the same object as long as the source's shape is made of the same (frozen) parts. */
function shapeToken(source: ResolvedSource): object {
  const parts: unknown[] = [source.introspection];
  for (const t of source.tables.values()) parts.push(t.name, t.entry.object_relationships, t.entry.array_relationships, t.entry.computed_fields);
  const last = shapes.get(source.name);
  if (last && last.parts.length === parts.length && last.parts.every((p, i) => p === parts[i])) return last.token;
  const token = {};
  shapes.set(source.name, { parts, token });
  return token;
}

export function resolvePermissions(source: ResolvedSource): Inconsistency[] {
  const out: Inconsistency[] = [];
  const scope = boolExpScope(source);
  const shape = shapeToken(source);
  for (const table of source.tables.values()) {
    for (const kind of PERMISSION_KINDS) {
      for (const stored of table.entry[`${kind}_permissions`] ?? []) {
        const role = String(stored.role);
        // Built only for an inconsistency: this loop runs over every permission of the document.
        const inconsistent = (message: string) => {
          const ref: TableObjectRef = { source: source.name, table: table.name, list: `${kind}_permissions`, type: `${kind}_permission`, name: role, stored };
          return tableObjectInconsistency(ref, tableObjectContext(table.name, 'permission for role', role) + message);
        };
        if (role === 'admin') {
          out.push(inconsistent('cannot define permission for admin role'));
          continue;
        }
        let memo = checked.get(stored);
        if (memo?.shape !== shape) {
          memo = { shape, result: check(() => resolvePermission(kind, role, stored.permission as JsonObject, table, scope, '$.permission')) };
          if (Object.isFrozen(stored)) checked.set(stored, memo);
        }
        if (memo.result instanceof ApiError) out.push(inconsistent(memo.result.message));
        else table.permissions[kind].set(role, memo.result);
      }
    }
  }
  return out;
}

function check(resolve: () => ResolvedPermission): ResolvedPermission | ApiError {
  try {
    return resolve();
  } catch (e) {
    return e instanceof ApiError ? e : new ApiError(400, 'invalid-configuration', unresolvable(e, ApiError));
  }
}
