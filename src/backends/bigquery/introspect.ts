/**
 * A BigQuery project's datasets read through INFORMATION_SCHEMA into the neutral catalog: the
 * dataset is the schema; types are mapped onto the PostgreSQL codes the GraphQL scalar mapping
 * reads (`INT64` -> int8, `STRING` -> text, ...), keeping the GoogleSQL type in `display` (the
 * translator casts parameters to it). BigQuery has no enforced keys: tables have no primary key
 * (so no `_by_pk` root field) and no foreign keys (relationships are manual). Reading is I/O
 * (`introspectBigQuery`), mapping is pure (`bigqueryCatalog`).
 */
import type { CatalogFunction, CatalogTable, CatalogType, DatabaseCatalog } from '../../metadata/catalog.js';
import { sql, type Sql } from '../../sql/fragment.js';
import { backtick } from './dialect.js';

export type Row = Record<string, unknown>;

export const tablesQuery = (dataset: string): Sql => sql`SELECT table_schema AS dataset, table_name AS name, table_type AS type FROM ${backtick(dataset)}.INFORMATION_SCHEMA.TABLES`;

export const columnsQuery = (dataset: string): Sql =>
  sql`SELECT table_schema AS dataset, table_name AS name, column_name AS col, ordinal_position AS position, is_nullable AS nullable, data_type AS type FROM ${backtick(dataset)}.INFORMATION_SCHEMA.COLUMNS`;

/** Routines (table functions for computed fields; `routine_type` 'TABLE FUNCTION'). */
export const routinesQuery = (dataset: string): Sql =>
  sql`SELECT routine_schema AS dataset, routine_name AS name, routine_type AS type, data_type AS returns FROM ${backtick(dataset)}.INFORMATION_SCHEMA.ROUTINES`;

/** Their arguments (the result is a row of its own, `is_result` YES). */
export const parametersQuery = (dataset: string): Sql =>
  sql`SELECT specific_schema AS dataset, specific_name AS name, ordinal_position AS position, parameter_name AS param, data_type AS type FROM ${backtick(dataset)}.INFORMATION_SCHEMA.PARAMETERS WHERE is_result = 'NO'`;

/** GoogleSQL type (without parameters) -> [PostgreSQL type name, category]. */
const TYPES: Record<string, [string, string]> = {
  INT64: ['int8', 'N'],
  FLOAT64: ['float8', 'N'],
  NUMERIC: ['numeric', 'N'],
  BIGNUMERIC: ['numeric', 'N'],
  BOOL: ['bool', 'B'],
  STRING: ['text', 'S'],
  BYTES: ['bytea', 'U'],
  DATE: ['date', 'D'],
  DATETIME: ['timestamp', 'D'],
  TIMESTAMP: ['timestamptz', 'D'],
  TIME: ['time', 'D'],
  JSON: ['json', 'U'],
};

export function catalogType(dataType: string): CatalogType {
  const base = /^[A-Z0-9]+/.exec(dataType)?.[0] ?? dataType;
  // ARRAY<...>, STRUCT<...>, GEOGRAPHY, INTERVAL: opaque scalars (compared with _eq etc. only).
  const [name, category] = TYPES[base] ?? [`bigquery_${base.toLowerCase()}`, 'U'];
  return { schema: 'bigquery', name, display: dataType, kind: 'b', category, element: null };
}

/** A table function's rows: described by the computed field's `return_table`, not by a type of the catalog. */
const TABLE_RESULT: CatalogType = { schema: 'bigquery', name: 'table', display: 'TABLE', kind: 'p', category: 'P', element: null };

/** Routines and their parameters as catalog functions (never overloaded: a dataset names each routine once). */
function functions(routines: Row[], parameters: Row[]): CatalogFunction[] {
  return routines.map((r, i) => {
    const table = r.type === 'TABLE FUNCTION';
    return {
      schema: String(r.dataset),
      name: String(r.name),
      oid: i + 1,
      comment: null,
      volatility: 'stable',
      returnsSet: table,
      returnType: table || r.returns === null || r.returns === undefined ? TABLE_RESULT : catalogType(String(r.returns)),
      args: parameters
        .filter((p) => p.dataset === r.dataset && p.name === r.name)
        .sort((a, b) => Number(a.position) - Number(b.position))
        .map((p) => ({ name: p.param === null || p.param === undefined ? null : String(p.param), type: catalogType(String(p.type)), hasDefault: false })),
      language: 'SQL',
      isAggregate: false,
      hasVariadic: false,
    };
  });
}

/** The INFORMATION_SCHEMA rows of the datasets as the neutral catalog. */
export function bigqueryCatalog(tables: Row[], columns: Row[], routines: Row[] = [], parameters: Row[] = []): DatabaseCatalog {
  const out = tables.map((t, i): CatalogTable => {
    const view = String(t.type).includes('VIEW');
    return {
      oid: i + 1,
      schema: String(t.dataset),
      name: String(t.name),
      kind: view ? 'view' : 'table',
      comment: null,
      columns: columns
        .filter((c) => c.dataset === t.dataset && c.name === t.name)
        .map((c) => ({ name: String(c.col), position: Number(c.position), type: catalogType(String(c.type)), nullable: c.nullable === 'YES', default: null, isIdentity: false, isGenerated: false, comment: null }))
        .sort((a, b) => a.position - b.position),
      primaryKey: null,
      uniqueConstraints: [],
      foreignKeys: [],
      constraintNames: [],
      // Read-only, as upstream: no mutations on BigQuery.
      insertable: false,
      updatable: false,
      deletable: false,
    };
  });
  out.sort((a, b) => (a.schema === b.schema ? a.name.localeCompare(b.name) : a.schema.localeCompare(b.schema)));
  return { serverVersion: 0, tables: out, functions: functions(routines, parameters), enumTypes: [] };
}

/** Reads the catalog of `datasets` with `run`. */
export async function introspectBigQuery(datasets: string[], run: (statement: Sql) => Promise<Row[]>): Promise<DatabaseCatalog> {
  const rows = { tables: [] as Row[], columns: [] as Row[], routines: [] as Row[], parameters: [] as Row[] };
  for (const d of datasets) {
    rows.tables.push(...(await run(tablesQuery(d))));
    rows.columns.push(...(await run(columnsQuery(d))));
    rows.routines.push(...(await run(routinesQuery(d))));
    rows.parameters.push(...(await run(parametersQuery(d))));
  }
  return bigqueryCatalog(rows.tables, rows.columns, rows.routines, rows.parameters);
}
