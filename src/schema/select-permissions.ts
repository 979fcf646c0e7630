/**
 * A role's select permission on a table, resolved: explicit, admin, or combined from
 * the parents of an inherited role (spec "Inherited role" rules 2-4).
 */
import { TRUE, type BoolExp } from '../ir/boolexp.js';
import { isObject, type Json, type JsonObject } from '../util/decode.js';
import type { Metadata, TableMetadata } from '../metadata/types.js';

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

/** Turns a stored boolean expression of a table into IR (the metadata layer's parser). */
export type FilterParser = (filter: Json, table: TableMetadata) => BoolExp;

const or = (items: BoolExp[]): BoolExp => (items.some((b) => b.kind === 'and' && b.items.length === 0) ? TRUE : items.length === 1 ? items[0]! : { kind: 'or', items });

export function inheritedRoles(m: Metadata): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const list = Array.isArray(m.inherited_roles) ? m.inherited_roles : [];
  for (const r of list) {
    if (isObject(r) && typeof r.role_name === 'string' && Array.isArray(r.role_set)) {
      out.set(r.role_name, r.role_set.filter((x): x is string => typeof x === 'string'));
    }
  }
  return out;
}

function explicit(t: TableMetadata, role: string, allColumns: string[], allComputed: string[], parse: FilterParser): SelectPermission | null {
  const entry = (t.select_permissions ?? []).find((p) => p.role === role);
  if (!entry || !isObject(entry.permission)) return null;
  const p = entry.permission as JsonObject;
  const cols = p.columns === '*' ? allColumns : Array.isArray(p.columns) ? p.columns.filter((c): c is string => typeof c === 'string') : [];
  // `columns: '*'` also grants every computed field, as the well-known engine does.
  const computed = p.columns === '*' ? allComputed : Array.isArray(p.computed_fields) ? p.computed_fields.filter((c): c is string => typeof c === 'string') : [];
  const roots = (v: Json | undefined) => (Array.isArray(v) ? new Set(v.filter((x): x is string => typeof x === 'string')) : null);
  return {
    columns: new Map(cols.map((c) => [c, null])),
    computedFields: new Map(computed.map((c) => [c, null])),
    filter: p.filter === undefined ? TRUE : parse(p.filter, t),
    limit: typeof p.limit === 'number' ? p.limit : null,
    allowAggregations: p.allow_aggregations === true,
    queryRootFields: roots(p.query_root_fields),
    subscriptionRootFields: roots(p.subscription_root_fields),
  };
}

function combine(parents: SelectPermission[]): SelectPermission {
  const grantedBy = (key: 'columns' | 'computedFields') => {
    const out = new Map<string, BoolExp | null>();
    const names = new Set(parents.flatMap((p) => [...p[key].keys()]));
    for (const name of names) {
      const granting = parents.filter((p) => p[key].has(name));
      // Granted by every parent: always visible; by some: visible where their filters hold.
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

/** Null when the role may not select from the table. */
export function selectPermission(
  m: Metadata,
  t: TableMetadata,
  role: string,
  allColumns: string[],
  allComputed: string[],
  parse: FilterParser,
  seen: Set<string> = new Set(),
): SelectPermission | null {
  if (role === 'admin') {
    return {
      columns: new Map(allColumns.map((c) => [c, null])),
      computedFields: new Map(allComputed.map((c) => [c, null])),
      filter: TRUE,
      limit: null,
      allowAggregations: true,
      queryRootFields: null,
      subscriptionRootFields: null,
    };
  }
  const own = explicit(t, role, allColumns, allComputed, parse);
  if (own) return own;
  const parents = inheritedRoles(m).get(role);
  if (!parents || seen.has(role)) return null;
  seen.add(role);
  const resolved = parents
    .map((p) => selectPermission(m, t, p, allColumns, allComputed, parse, seen))
    .filter((p): p is SelectPermission => p !== null);
  seen.delete(role);
  return resolved.length === 0 ? null : combine(resolved);
}
