/** The table a deprecated DML operation works on, as the catalog describes it. */
import type { CatalogColumn, CatalogTable } from '../../../catalog/types.js';
import type { RelationshipKind } from '../../../metadata/resolve/types.js';
import { notExists } from '../../../errors/admin.js';
import { qualified, sql, type Sql } from '../../../sql/fragment.js';
import type { Scope } from '../translate/context.js';

export interface DmlTarget {
  table: CatalogTable;
  /** The table under its alias, which `where` conditions refer to. */
  scope: Scope;
  /** A `where` argument as a condition on `scope` (checked against the metadata by the caller). */
  where(v: unknown, path: string): Sql;
  /** A relationship of the table, its target under an alias of its own (a select's nested columns). */
  related(name: string, path: string): { kind: RelationshipKind; mapping: [string, string][]; target: DmlTarget };
}

/** The table, schema-qualified and quoted. */
export const tableSql = (target: DmlTarget): Sql => qualified(target.table.schema, target.table.name);

/** `"schema"."table" AS alias`, for FROM, UPDATE and DELETE. */
export const aliasedTable = (target: DmlTarget): Sql => sql`${tableSql(target)} AS ${target.scope.alias}`;

export function column(target: DmlTarget, name: string, path: string): CatalogColumn {
  const c = target.table.columns.find((x) => x.name === name);
  if (!c) throw notExists(`column ${JSON.stringify(name)} does not exist`, path);
  return c;
}
