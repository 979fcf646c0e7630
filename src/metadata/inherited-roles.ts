/**
 * Inherited roles (spec "Inherited role"): `{role_name, role_set}` entries of the
 * top-level `inherited_roles` list, which may not form cycles (rule 1).
 */
import { badRequest } from '../errors/admin.js';
import { arrayOf, isObject, nonEmptyStr, ObjectReader, type Json, type JsonObject } from '../util/decode.js';
import type { Metadata } from './types.js';
import { firstRepeat } from '../util/first-repeat.js';

export interface InheritedRole {
  role_name: string;
  role_set: string[];
}

/** One `{role_name, role_set}`: at least two distinct roles, not including itself. */
export function inheritedRole(v: unknown, path: string): InheritedRole {
  const r = ObjectReader.of(v, path);
  const name = r.required('role_name', nonEmptyStr);
  const set = [...new Set(r.required('role_set', arrayOf(nonEmptyStr)))];
  r.done();
  if (set.includes(name)) throw badRequest('invalid-params', 'an inherited role name cannot be in the role combination', `${path}.role_set`);
  if (set.length < 2) throw badRequest('invalid-params', 'an inherited role needs at least two roles in its role_set', `${path}.role_set`);
  return { role_name: name, role_set: set };
}

/** The `inherited_roles` section of a document (replace_metadata input), checked for duplicates and cycles. */
export function inheritedRoleList(v: unknown, path: string): InheritedRole[] {
  const list = arrayOf(inheritedRole)(v, path);
  const i = firstRepeat(list, (role) => role.role_name);
  if (i >= 0) throw badRequest('already-exists', `inherited role ${JSON.stringify(list[i]!.role_name)} is listed more than once`, `${path}[${i}]`);
  checkRoleCycles(list, path);
  return list;
}

/** The inherited roles of a stored document. */
export function inheritedRoles(m: Metadata): InheritedRole[] {
  const list = m.inherited_roles;
  return Array.isArray(list) ? (list.filter(isObject) as unknown as InheritedRole[]) : [];
}

export function setInheritedRoles(m: Metadata, roles: InheritedRole[]): void {
  const sorted = [...roles].sort((a, b) => (a.role_name < b.role_name ? -1 : a.role_name > b.role_name ? 1 : 0));
  m.inherited_roles = sorted as unknown as Json;
}

/**
 * Refuses role graphs with cycles, naming each cycle from where it was entered
 * (`["a","b","a"]`), as the well-known engine reports them.
 */
export function checkRoleCycles(roles: readonly InheritedRole[], path: string): void {
  const parents = new Map(roles.map((r) => [r.role_name, r.role_set]));
  const done = new Set<string>();
  const cycles: string[][] = [];
  const visit = (role: string, stack: string[]) => {
    const at = stack.indexOf(role);
    if (at >= 0) {
      cycles.push([...stack.slice(at), role]);
      return;
    }
    if (done.has(role)) return;
    stack.push(role);
    for (const p of parents.get(role) ?? []) visit(p, stack);
    stack.pop();
    done.add(role);
  };
  for (const name of [...parents.keys()].sort()) visit(name, []);
  if (cycles.length > 0) {
    throw badRequest('cyclic-dependency', `found cycle(s) in roles: ${cycles.map((c) => JSON.stringify(c)).join(', ')}`, path);
  }
}

/** Every role some permission in the document names, plus the inherited roles. */
export function definedRoles(m: Metadata): Set<string> {
  const roles = new Set<string>();
  const addFrom = (list: Json | undefined) => {
    if (Array.isArray(list)) for (const p of list) if (isObject(p) && typeof p.role === 'string') roles.add(p.role);
  };
  for (const s of m.sources) {
    for (const t of s.tables) {
      for (const key of ['insert_permissions', 'select_permissions', 'update_permissions', 'delete_permissions'] as const) addFrom(t[key]);
    }
    for (const f of s.functions ?? []) addFrom(f.permissions);
  }
  for (const section of ['remote_schemas', 'actions']) {
    const items = m[section];
    if (Array.isArray(items)) for (const item of items) if (isObject(item)) addFrom((item as JsonObject).permissions);
  }
  for (const r of inheritedRoles(m)) roles.add(r.role_name);
  return roles;
}
