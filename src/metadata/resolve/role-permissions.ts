/**
 * A role's effective permissions on a resolved table: admin's (everything), its own, or
 * combined from the parents of an inherited role (spec "Inherited role" rules 2-5). Read
 * from the resolved permissions only, so a permission that did not resolve (an
 * inconsistent object) grants nothing and breaks nothing else.
 */
import { TRUE, type BoolExp, type Value } from '../../ir/boolexp.js';
import type { Json } from '../../util/decode.js';
import { permissionKey } from './inherited-roles.js';
import type { PermissionKind, ResolvedPermission, ResolvedTable } from './types.js';

export interface SelectPermission {
  /** Visible columns: null = always returned; a condition = returned when it holds, else null (rule 3). */
  columns: Map<string, BoolExp | null>;
  computedFields: Map<string, BoolExp | null>;
  filter: BoolExp;
  limit: number | null;
  allowAggregations: boolean;
  /** Null = every root field. */
  queryRootFields: Set<string> | null;
  subscriptionRootFields: Set<string> | null;
}

export interface InsertPermission {
  columns: Set<string>;
  check: BoolExp;
  /** Column presets: literals or session variables, applied whatever the input says. */
  set: Map<string, Value>;
  backendOnly: boolean;
}

export interface UpdatePermission {
  columns: Set<string>;
  filter: BoolExp;
  check: BoolExp;
  set: Map<string, Value>;
  backendOnly: boolean;
}

export interface DeletePermission {
  filter: BoolExp;
  backendOnly: boolean;
}

/** A preset value: a string naming a session variable reads it, anything else is a literal. */
export function presetValue(v: Json): Value {
  if (typeof v === 'string' && v.toLowerCase().startsWith('x-service-')) return { kind: 'session', name: v.toLowerCase() };
  return { kind: 'literal', value: v };
}

/**
 * A role's own permission in the form the schema reads, made once per resolved permission: roles
 * with the same permission on a table share it, and it is kept across snapshots while the table's
 * resolved permissions are (at 5,000 tables × 11 roles, most of a role model's size and time).
 */
const derived = new WeakMap<ResolvedPermission, SelectPermission | InsertPermission | UpdatePermission | DeletePermission>();
function once<T extends SelectPermission | InsertPermission | UpdatePermission | DeletePermission>(p: ResolvedPermission, make: (p: ResolvedPermission) => T): T {
  let d = derived.get(p) as T | undefined;
  if (!d) derived.set(p, (d = make(p)));
  return d;
}

/** Made once per list (resolution gives roles granted the same names one list, permissions.ts). */
function perList<T>(make: (names: readonly string[]) => T): (names: readonly string[]) => T {
  const made = new WeakMap<readonly string[], T>();
  return (names) => {
    let m = made.get(names);
    if (m === undefined) made.set(names, (m = make(names)));
    return m;
  };
}
const grantedAlways = perList((names) => new Map<string, BoolExp | null>(names.map((c) => [c, null])));
const nameSet = perList((names) => new Set(names));

const or = (items: BoolExp[]): BoolExp => (items.some((b) => b.kind === 'and' && b.items.length === 0) ? TRUE : items.length === 1 ? items[0]! : { kind: 'or', items });
const rootFields = (v: string[] | null) => (v === null ? null : nameSet(v));
const presetMaps = new WeakMap<Record<string, Json>, Map<string, Value>>();
/** Made once per presets object (resolution keeps the body's own: roles with the same presets share it). */
function presets(set: Record<string, Json>): Map<string, Value> {
  let m = presetMaps.get(set);
  if (!m) presetMaps.set(set, (m = new Map(Object.entries(set).map(([k, v]) => [k, presetValue(v)]))));
  return m;
}

function ownSelect(p: ResolvedPermission): SelectPermission {
  return {
    columns: grantedAlways(p.columns),
    computedFields: grantedAlways(p.computedFields),
    filter: p.filter ?? TRUE,
    limit: p.limit,
    allowAggregations: p.allowAggregations,
    queryRootFields: rootFields(p.queryRootFields),
    subscriptionRootFields: rootFields(p.subscriptionRootFields),
  };
}

/** Rules 2-4: the union of the parents' rows and columns; a column some parents grant is visible where their filters hold. */
function combineSelect(parents: SelectPermission[]): SelectPermission {
  const grantedBy = (key: 'columns' | 'computedFields') => {
    const out = new Map<string, BoolExp | null>();
    for (const name of new Set(parents.flatMap((p) => [...p[key].keys()]))) {
      const granting = parents.filter((p) => p[key].has(name));
      out.set(name, granting.length === parents.length ? null : or(granting.map((p) => p.filter)));
    }
    return out;
  };
  const union = (sets: (Set<string> | null)[]) => (sets.some((s) => s === null) ? null : new Set(sets.flatMap((s) => [...s!])));
  const limits = parents.map((p) => p.limit);
  return {
    columns: grantedBy('columns'),
    computedFields: grantedBy('computedFields'),
    filter: or(parents.map((p) => p.filter)),
    limit: limits.some((l) => l === null) ? null : Math.max(...(limits as number[])),
    allowAggregations: parents.some((p) => p.allowAggregations),
    queryRootFields: union(parents.map((p) => p.queryRootFields)),
    subscriptionRootFields: union(parents.map((p) => p.subscriptionRootFields)),
  };
}

export class RolePermissions {
  /** `inheritedRoles`: each inherited role's parents (spec "Inherited role"). */
  constructor(private readonly inheritedRoles: ReadonlyMap<string, readonly string[]>) {}

  /** Null when the role may not select from the table. */
  select(t: ResolvedTable, role: string): SelectPermission | null {
    if (role === 'admin') {
      return {
        columns: new Map([...t.columns.keys()].map((c) => [c, null])),
        computedFields: new Map([...t.computedFields.keys()].map((c) => [c, null])),
        filter: TRUE,
        limit: null,
        allowAggregations: true,
        queryRootFields: null,
        subscriptionRootFields: null,
      };
    }
    return this.inherit(role, (r) => {
      const own = t.permissions.select.get(r);
      return own ? once(own, ownSelect) : null;
    }, combineSelect);
  }

  insert(t: ResolvedTable, role: string): InsertPermission | null {
    if (role === 'admin') return { columns: new Set(t.columns.keys()), check: TRUE, set: new Map(), backendOnly: false };
    const p = this.mutation(t, 'insert', role);
    return p && once(p, (q): InsertPermission => ({ columns: nameSet(q.columns), check: q.check ?? TRUE, set: presets(q.set), backendOnly: q.backendOnly }));
  }

  update(t: ResolvedTable, role: string): UpdatePermission | null {
    if (role === 'admin') return { columns: new Set(t.columns.keys()), filter: TRUE, check: TRUE, set: new Map(), backendOnly: false };
    const p = this.mutation(t, 'update', role);
    return p && once(p, (q): UpdatePermission => ({ columns: nameSet(q.columns), filter: q.filter ?? TRUE, check: q.check ?? TRUE, set: presets(q.set), backendOnly: q.backendOnly }));
  }

  delete(t: ResolvedTable, role: string): DeletePermission | null {
    if (role === 'admin') return { filter: TRUE, backendOnly: false };
    const p = this.mutation(t, 'delete', role);
    return p && once(p, (q): DeletePermission => ({ filter: q.filter ?? TRUE, backendOnly: q.backendOnly }));
  }

  /** Rule 5: an inherited role gets a mutation permission only when every parent that has one has the same. */
  private mutation(t: ResolvedTable, kind: Exclude<PermissionKind, 'select'>, role: string): ResolvedPermission | null {
    return this.inherit(role, (r) => t.permissions[kind].get(r) ?? null, (found) => {
      const key = permissionKey(found[0]!);
      return found.every((p) => permissionKey(p) === key) ? found[0]! : null;
    });
  }

  /**
   * The role's own permission, else its parents' combined (null when none has one); cycles are
   * cut. `seen` is made only for an inherited role: a role model asks 20,000 times at 5,000 tables.
   */
  private inherit<P>(role: string, own: (role: string) => P | null, combine: (parents: P[]) => P | null, seen?: Set<string>): P | null {
    const mine = own(role);
    if (mine) return mine;
    const parents = this.inheritedRoles.get(role);
    if (!parents || seen?.has(role)) return null;
    const path = seen ?? new Set<string>();
    path.add(role);
    const found = parents.map((p) => this.inherit(p, own, combine, path)).filter((p): p is NonNullable<P> => p !== null);
    path.delete(role);
    return found.length === 0 ? null : combine(found);
  }
}
