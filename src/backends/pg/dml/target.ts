/** The table a deprecated DML operation works on, as the catalog describes it, and what the caller may do on it. */
import type { CatalogColumn, CatalogTable } from '../../../catalog/types.js';
import type { BoolExp, Value } from '../../../ir/boolexp.js';
import type { DmlPermissions } from '../../../metadata/dml-permissions.js';
import type { SelectPermission } from '../../../metadata/resolve/role-permissions.js';
import type { RelationshipKind, ResolvedTable } from '../../../metadata/resolve/types.js';
import { notExists } from '../../../errors/admin.js';
import { ident, qualified, sql, type Sql } from '../../../sql/fragment.js';
import { col, type Scope } from '../translate/context.js';

export interface DmlTarget {
  table: CatalogTable;
  resolved: ResolvedTable;
  /** The table under its alias, which `where` conditions refer to. */
  scope: Scope;
  permissions: DmlPermissions;
  /** A `where` argument as a condition on `scope` (checked against the metadata and the caller's permissions by the caller). */
  where(v: unknown, path: string): Sql;
  /** A permission's condition on `scope`. */
  condition(b: BoolExp): Sql;
  /** A permission's preset value (a literal or a session variable) as a value of column `c`. */
  preset(v: Value, c: CatalogColumn): Sql;
  /** A relationship of the table, its target under an alias of its own (a select's nested columns). */
  related(name: string, path: string): { kind: RelationshipKind; mapping: [string, string][]; target: DmlTarget };
}

/** The table, schema-qualified and quoted. */
export const tableSql = (target: DmlTarget): Sql => qualified(target.table.schema, target.table.name);

/** `"schema"."table" AS alias`, for FROM, INSERT, UPDATE and DELETE. */
export const aliasedTable = (target: DmlTarget): Sql => sql`${tableSql(target)} AS ${target.scope.alias}`;

export function column(target: DmlTarget, name: string, path: string): CatalogColumn {
  const c = target.table.columns.find((x) => x.name === name);
  if (!c) throw notExists(`column ${JSON.stringify(name)} does not exist`, path);
  return c;
}

/** A column the caller may read: refused unless `permission` grants it. */
export function readable(target: DmlTarget, permission: SelectPermission, name: string, path: string): CatalogColumn {
  target.permissions.column('select', permission.columns, name, path);
  return column(target, name, path);
}

/** A readable column's value on `scope`: NULL where an inherited role sees it only conditionally and the condition fails (spec "Inherited role" rule 3). */
export function readValue(target: DmlTarget, permission: SelectPermission, name: string): Sql {
  const when = permission.columns.get(name);
  const value = col(target.scope, name);
  return when ? sql`CASE WHEN ${target.condition(when)} THEN ${value} ELSE NULL END` : value;
}

/** `value AS "name"`: a selected or returned column. */
export const outputColumn = (target: DmlTarget, permission: SelectPermission, name: string): Sql => sql`${readValue(target, permission, name)} AS ${ident(name)}`;
