/**
 * Stage 6: inherited roles. Each needs its parent roles to exist; and where a role
 * has no insert/update/delete permission of its own on a table, its parents' must
 * agree (spec "Inherited role" rule 5), else the entity/role pair is reported as an
 * informational inconsistency, resolved by giving the role its own permission.
 */
import type { Json } from '../../util/decode.js';
import { definedRoles, inheritedRoles, setInheritedRoles, type InheritedRole } from '../inherited-roles.js';
import { showTable } from '../names.js';
import type { Metadata } from '../types.js';
import type { Inconsistency, PermissionKind, ResolvedPermission, ResolvedSource, ResolvedTable } from './types.js';

const MUTATIONS: readonly PermissionKind[] = ['insert', 'update', 'delete'];

/** `inherited_role inherited role users`: the type, then the well-known engine's object name. */
export const inheritedRoleObjectName = (role: string) => `inherited_role inherited role ${role}`;

/** The consistent inherited roles (each with its parents), and the inconsistencies. */
export function resolveInheritedRoles(m: Metadata, sources: Iterable<ResolvedSource>): { consistent: Map<string, string[]>; inconsistencies: Inconsistency[] } {
  const roles = inheritedRoles(m);
  // Both checks below walk every permission of the document: nothing to check without inherited roles.
  if (roles.length === 0) return { consistent: new Map(), inconsistencies: [] };
  const known = definedRoles(m);
  const consistent = new Map<string, string[]>();
  const out: Inconsistency[] = [];
  for (const r of roles) {
    const missing = missingParents(r, known);
    if (missing) out.push(missing);
    else consistent.set(r.role_name, r.role_set);
  }
  const ordered = parentsFirst(roles);
  for (const source of sources) {
    for (const table of source.tables.values()) {
      for (const kind of MUTATIONS) out.push(...conflicts(source.name, table, kind, ordered));
    }
  }
  return { consistent, inconsistencies: out };
}

function missingParents(role: InheritedRole, known: Set<string>): Inconsistency | null {
  const missing = role.role_set.filter((p) => !known.has(p));
  if (missing.length === 0) return null;
  return {
    object: {
      type: 'inherited_role',
      name: inheritedRoleObjectName(role.role_name),
      definition: role as unknown as Json,
      reason: `Inconsistent object: the following parent role(s) are not found: ${missing.join(', ')} which are required to construct the inherited role: ${JSON.stringify(role.role_name)}`,
    },
    remove: (d) => setInheritedRoles(d, inheritedRoles(d).filter((r) => r.role_name !== role.role_name)),
  };
}

/** Inherited roles ordered so that each comes after the inherited roles it inherits from. */
export function parentsFirst(roles: InheritedRole[]): InheritedRole[] {
  const byName = new Map(roles.map((r) => [r.role_name, r]));
  const out: InheritedRole[] = [];
  const placed = new Set<string>();
  const place = (r: InheritedRole, path: Set<string>) => {
    if (placed.has(r.role_name) || path.has(r.role_name)) return;
    path.add(r.role_name);
    for (const p of r.role_set) {
      const parent = byName.get(p);
      if (parent) place(parent, path);
    }
    placed.add(r.role_name);
    out.push(r);
  };
  for (const r of roles) place(r, new Set());
  return out;
}

/** What makes two permissions "the same" for rule 5: what they allow, not how it was written. */
export function permissionKey(p: ResolvedPermission): string {
  const set = Object.fromEntries(Object.entries(p.set).sort(([a], [b]) => (a < b ? -1 : 1)));
  return JSON.stringify([[...p.columns].sort(), p.filter, p.check, set, p.backendOnly]);
}

function conflicts(source: string, table: ResolvedTable, kind: PermissionKind, ordered: InheritedRole[]): Inconsistency[] {
  const effective = new Map<string, ResolvedPermission>(table.permissions[kind]);
  const out: Inconsistency[] = [];
  for (const role of ordered) {
    if (effective.has(role.role_name)) continue;
    const inherited = role.role_set.map((p) => effective.get(p)).filter((p): p is ResolvedPermission => p !== undefined);
    if (inherited.length === 0) continue;
    const key = permissionKey(inherited[0]!);
    if (inherited.every((p) => permissionKey(p) === key)) effective.set(role.role_name, inherited[0]!);
    else out.push(conflict(role.role_name, source, table, kind));
  }
  return out;
}

function conflict(role: string, source: string, table: ResolvedTable, kind: PermissionKind): Inconsistency {
  const t = showTable(table.name);
  return {
    object: {
      type: 'inherited role permission inconsistency',
      name: role,
      entity: { table: t, source, permission_type: kind },
      reason: `Could not inherit permission for the role '${role}' for the entity: '${kind} permission, table: ${t}, source: '${source}''`,
    },
    informational: true,
    remove: () => {},
  };
}
