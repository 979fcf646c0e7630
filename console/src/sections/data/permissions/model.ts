/**
 * What the permissions tab reads from the metadata: the four actions, the roles named anywhere,
 * a role's permission for an action, and how much it grants (the grid's full / partial / none,
 * as the well-known engine's console shows it: full when it checks no rows and grants every
 * column).
 */
import type { Metadata, Permission, TableEntry } from '../../../api/metadata';

export const ACTIONS = ['insert', 'select', 'update', 'delete'] as const;
export type Action = (typeof ACTIONS)[number];

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type BoolExp = { [key: string]: Json };

const listOf = (entry: TableEntry, action: Action): Permission[] => entry[`${action}_permissions`] ?? [];

/** Every role that has a permission on some table of some source, sorted. */
export function tableRoles(m: Metadata | null): string[] {
  const roles = new Set<string>();
  for (const source of m?.sources ?? []) for (const entry of source.tables) for (const action of ACTIONS) for (const p of listOf(entry, action)) roles.add(p.role);
  return [...roles].sort();
}

export const permissionOf = (entry: TableEntry | undefined, action: Action, role: string): Permission | undefined =>
  entry ? listOf(entry, action).find((p) => p.role === role) : undefined;

export type Access = 'full' | 'partial' | 'none';

const isEmptyExp = (v: unknown) => v === undefined || (typeof v === 'object' && v !== null && Object.keys(v).length === 0);

/** `columns`: the table's columns, to tell a list naming them all from a partial one. */
export function accessOf(permission: Permission | undefined, action: Action, columns: string[]): Access {
  if (!permission) return 'none';
  const p = permission.permission;
  const rowsFree = isEmptyExp(p.filter) && isEmptyExp(p.check);
  const granted = p.columns;
  const allColumns = action === 'delete' || granted === '*' || (Array.isArray(granted) && columns.every((c) => granted.includes(c)));
  return rowsFree && allColumns ? 'full' : 'partial';
}

/** The boolean expression of a permission that checks rows: `check` for insert, `filter` otherwise. */
export function rowExpressionOf(permission: Permission | undefined, action: Action): BoolExp | undefined {
  const v = permission?.permission[action === 'insert' ? 'check' : 'filter'];
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as BoolExp) : undefined;
}
