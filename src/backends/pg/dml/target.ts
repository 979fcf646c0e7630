/** The table a deprecated DML operation works on, as the catalog describes it. */
import type { PgColumn, PgTable } from '../catalog.js';
import { notExists } from '../../../protocol/errors.js';
import { ident, qualified, type Sql } from '../../../sql/fragment.js';

export interface DmlTarget {
  table: PgTable;
  /** The table, schema-qualified and quoted. */
  sql: Sql;
}

export const dmlTarget = (table: PgTable): DmlTarget => ({ table, sql: qualified(table.schema, table.name) });

export function column(target: DmlTarget, name: string, path: string): PgColumn {
  const c = target.table.columns.find((x) => x.name === name);
  if (!c) throw notExists(`column ${JSON.stringify(name)} does not exist`, path);
  return c;
}

export const columnSql = (c: PgColumn): Sql => ident(c.name);
