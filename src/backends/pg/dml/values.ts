/**
 * JSON values as typed SQL values of a column. PostgreSQL converts them through the
 * table's row type (`json_populate_record`), so every type it can read from JSON works
 * (arrays, json/jsonb, enums, domains) without a type map of our own.
 */
import type { CatalogColumn } from '../../../catalog/types.js';
import { ident, literal, sql, type Sql } from '../../../sql/fragment.js';
import { tableSql, type DmlTarget } from './target.js';

export function columnValue(target: DmlTarget, c: CatalogColumn, value: unknown): Sql {
  return sql`(json_populate_record(NULL::${tableSql(target)}, ${literal(JSON.stringify({ [c.name]: value }))}::json)).${ident(c.name)}`;
}

/** An array of the column's type, for `IN`-style comparisons. */
export function columnValues(target: DmlTarget, c: CatalogColumn, values: unknown[]): Sql {
  const rows = JSON.stringify(values.map((v) => ({ [c.name]: v })));
  return sql`ARRAY(SELECT "r".${ident(c.name)} FROM json_populate_recordset(NULL::${tableSql(target)}, ${literal(rows)}::json) AS "r")`;
}
