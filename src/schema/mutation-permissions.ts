/**
 * A role's insert, update and delete permissions on a table, resolved. Inherited
 * roles get one only when every parent that has it has the same one (spec
 * "Inherited role" rule 5; a conflict is reported by the metadata, not here).
 */
import { TRUE, type BoolExp, type Value } from '../ir/boolexp.js';
import { isObject, type Json, type JsonObject } from '../util/decode.js';
import type { Metadata, TableMetadata } from '../metadata/types.js';
import { inheritedRoles, type FilterParser } from './select-permissions.js';

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

type Kind = 'insert' | 'update' | 'delete';

/** A preset value: a string naming a session variable reads it, anything else is a literal. */
export function presetValue(v: Json): Value {
  if (typeof v === 'string' && v.toLowerCase().startsWith('x-service-')) return { kind: 'session', name: v.toLowerCase() };
  return { kind: 'literal', value: v };
}

function stored(t: TableMetadata, kind: Kind, role: string, seen: Set<string>, m: Metadata): JsonObject | null {
  const own = (t[`${kind}_permissions`] ?? []).find((p) => p.role === role);
  if (own && isObject(own.permission)) return own.permission;
  const parents = inheritedRoles(m).get(role);
  if (!parents || seen.has(role)) return null;
  seen.add(role);
  const found = parents.map((p) => stored(t, kind, p, seen, m)).filter((p): p is JsonObject => p !== null);
  seen.delete(role);
  if (found.length === 0) return null;
  const first = JSON.stringify(found[0]);
  return found.every((p) => JSON.stringify(p) === first) ? found[0]! : null;
}

const columnList = (v: Json | undefined, all: string[]) =>
  new Set(v === '*' ? all : Array.isArray(v) ? v.filter((c): c is string => typeof c === 'string') : []);

const presets = (v: Json | undefined) => new Map(isObject(v) ? Object.entries(v).map(([k, x]) => [k, presetValue(x)]) : []);

export function insertPermission(m: Metadata, t: TableMetadata, role: string, all: string[], parse: FilterParser): InsertPermission | null {
  if (role === 'admin') return { columns: new Set(all), check: TRUE, set: new Map(), backendOnly: false };
  const p = stored(t, 'insert', role, new Set(), m);
  if (!p) return null;
  return { columns: columnList(p.columns ?? '*', all), check: p.check === undefined ? TRUE : parse(p.check, t), set: presets(p.set), backendOnly: p.backend_only === true };
}

export function updatePermission(m: Metadata, t: TableMetadata, role: string, all: string[], parse: FilterParser): UpdatePermission | null {
  if (role === 'admin') return { columns: new Set(all), filter: TRUE, check: TRUE, set: new Map(), backendOnly: false };
  const p = stored(t, 'update', role, new Set(), m);
  if (!p) return null;
  return {
    columns: columnList(p.columns, all),
    filter: p.filter === undefined ? TRUE : parse(p.filter, t),
    check: p.check === undefined || p.check === null ? TRUE : parse(p.check, t),
    set: presets(p.set),
    backendOnly: p.backend_only === true,
  };
}

export function deletePermission(m: Metadata, t: TableMetadata, role: string, parse: FilterParser): DeletePermission | null {
  if (role === 'admin') return { filter: TRUE, backendOnly: false };
  const p = stored(t, 'delete', role, new Set(), m);
  if (!p) return null;
  return { filter: p.filter === undefined ? TRUE : parse(p.filter, t), backendOnly: p.backend_only === true };
}
