/**
 * Stage 5: each permission is checked against its table; its boolean expressions are parsed.
 *
 * Permissions are by far the most numerous objects (220,000 at 5,000 tables × 11 roles) and
 * most changes touch one table. What a table's permissions read besides its entry is the
 * source's shape (`shape`: the catalog and every tracked table's relationships and computed
 * fields, see resolve.ts). Committed metadata is frozen and shared between versions, so while
 * the shape stays the same, a table entry that is the same object as last time resolves as it
 * did then and its permissions are not checked again.
 */
import { qualifiedKey } from '../../catalog/types.js';
import { ApiError } from '../../errors/admin.js';
import type { JsonObject } from '../../util/decode.js';
import type { BoolExpScope, ParsedExpressions } from '../boolexp.js';
import { resolvePermission } from '../permissions.js';
import type { ResolveMemo } from './memo.js';
import { tableObjectContext, tableObjectInconsistency, unresolvable, type TableObjectRef } from './objects.js';
import { PERMISSION_KINDS, type Inconsistency, type PermissionKind, type ResolvedPermission, type ResolvedSource, type ResolvedTable } from './types.js';

export function boolExpScope(source: ResolvedSource): BoolExpScope {
  return { source: source.name, table: (name) => source.tables.get(qualifiedKey(name)), baseTypes: source.introspection.baseTypes };
}

export function resolvePermissions(source: ResolvedSource, shape: object, memo: ResolveMemo): Inconsistency[] {
  const scope = boolExpScope(source);
  // The tables map resolved last on this shape, or the one it was made from (resolve.ts): only
  // the records that are new since are looked at (one of 5,000 for a permission change).
  const same = memo.resolvedPermissions.get(source.tables);
  const derived = memo.derivedRecords.get(source.tables);
  const from = derived && memo.resolvedPermissions.get(derived.from.deref() ?? source.tables);
  const before = same?.shape === shape ? same : from?.shape === shape ? from : undefined;
  const found = new Map(before?.found);
  for (const key of before === undefined ? source.tables.keys() : before === same ? [] : derived!.keys) {
    const problems = tablePermissions(source, source.tables.get(key)!, scope, shape, memo);
    if (problems.length > 0) found.set(key, problems);
    else found.delete(key);
  }
  memo.resolvedPermissions.set(source.tables, { shape, found });
  if (found.size === 0) return [];
  // In the tables' order, as resolved from nothing.
  const out: Inconsistency[] = [];
  for (const key of source.tables.keys()) out.push(...(found.get(key) ?? []));
  return out;
}

/** One table's permissions: kept while its entry and the source's shape are the same objects. */
function tablePermissions(source: ResolvedSource, table: ResolvedTable, scope: BoolExpScope, shape: object, memo: ResolveMemo): Inconsistency[] {
  const kept = memo.permissions.get(table.entry);
  if (kept?.shape === shape) {
    table.permissions = kept.permissions;
    return kept.inconsistencies;
  }
  const found = resolveTablePermissions(source, table, scope);
  if (Object.isFrozen(table.entry)) memo.permissions.set(table.entry, { shape, permissions: table.permissions, inconsistencies: found });
  return found;
}

function resolveTablePermissions(source: ResolvedSource, table: ResolvedTable, scope: BoolExpScope): Inconsistency[] {
  const out: Inconsistency[] = [];
  table.permissions = Object.fromEntries(PERMISSION_KINDS.map((k) => [k, new Map()])) as ResolvedTable['permissions'];
  // Roles often have the same permission on a table (word for word): it is checked once, and
  // the roles share the result. Nothing in a check depends on the role, and it is never mutated.
  // Equal bodies of a decoded, stored or snapshot document are one object (equal-permissions.ts):
  // found by identity, never by comparing every pair (100 roles of their own per table).
  const checked = Object.fromEntries(PERMISSION_KINDS.map((k) => [k, new Map<object, ResolvedPermission | { error: unknown }>()])) as Record<PermissionKind, Map<object, ResolvedPermission | { error: unknown }>>;
  // And conditions written the same in several permissions (the owner's rows, say) share their IR.
  const parsed: ParsedExpressions = new Map();
  const resolveOnce = (kind: PermissionKind, body: JsonObject): ResolvedPermission => {
    let found = checked[kind].get(body);
    if (!found) {
      try {
        found = resolvePermission(kind, body, table, scope, '$.permission', parsed);
      } catch (error) {
        found = { error };
      }
      checked[kind].set(body, found);
    }
    if ('error' in found) throw found.error;
    return found;
  };
  for (const kind of PERMISSION_KINDS) {
    for (const stored of table.entry[`${kind}_permissions`] ?? []) {
      const role = String(stored.role);
      // Made only for an inconsistent one: 220,000 permissions at 5,000 tables × 11 roles.
      const inconsistent = (reason: string) => {
        const ref: TableObjectRef = { source: source.name, table: table.name, list: `${kind}_permissions`, type: `${kind}_permission`, name: role, stored };
        out.push(tableObjectInconsistency(ref, tableObjectContext(table.name, 'permission for role', role) + reason));
      };
      if (role === 'admin') {
        inconsistent('cannot define permission for admin role');
        continue;
      }
      try {
        table.permissions[kind].set(role, resolveOnce(kind, stored.permission as JsonObject));
      } catch (e) {
        inconsistent(unresolvable(e, ApiError));
      }
    }
  }
  return out;
}
