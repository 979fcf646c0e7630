/**
 * A BigQuery project's datasets read through INFORMATION_SCHEMA into the neutral catalog: the
 * dataset is the schema; a type keeps its GoogleSQL name, its full text in `display` (the
 * translator casts parameters to it), and its neutral traits. BigQuery has no enforced keys: tables have no primary key
 * (so no `_by_pk` root field) and no foreign keys (relationships are manual). Reading is I/O
 * (`introspectBigQuery`), mapping is pure (`bigqueryCatalog`).
 */
import type { CatalogFunction, CatalogTable, CatalogType, DatabaseCatalog, TypeTraits } from '../../catalog/types.js';
import { literal, typeTraits } from '../../catalog/type-traits.js';
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

const DECIMAL = typeTraits('numeric', 'numeric', { wide: true, literal: literal('number', 'Scientific') });

/**
 * GoogleSQL's types in the neutral vocabulary (the base type, without parameters). Dates and
 * times are scalars named as GoogleSQL names them; any other type (ARRAY, STRUCT, GEOGRAPHY,
 * INTERVAL) is an opaque scalar `bigquery_<type>`, compared with `_eq` and the like only.
 */
const TYPES: Record<string, TypeTraits> = {
  INT64: typeTraits('bigint', 'numeric', { wide: true, literal: literal('integer', 'Int64') }),
  FLOAT64: typeTraits('Float', 'numeric', { wide: true, literal: literal('number', 'Double') }),
  NUMERIC: DECIMAL,
  BIGNUMERIC: DECIMAL,
  BOOL: typeTraits('Boolean', 'boolean', { literal: literal('boolean', 'Bool') }),
  STRING: typeTraits('String', 'text', { literal: literal('string', 'Text') }),
  BYTES: typeTraits('bytea', 'other'),
  DATE: typeTraits('date', 'other', { literal: literal('string', 'Day') }),
  DATETIME: typeTraits('datetime', 'other', { literal: literal('string', 'LocalTime') }),
  TIMESTAMP: typeTraits('timestamp', 'other', { literal: literal('string', 'UTCTime') }),
  TIME: typeTraits('time', 'other', { literal: literal('string', 'TimeOfDay') }),
  JSON: typeTraits('json', 'json'),
};

export function catalogType(dataType: string): CatalogType {
  const base = /^[A-Z0-9]+/.exec(dataType)?.[0] ?? dataType;
  return { schema: 'bigquery', name: base, display: dataType, kind: 'base', element: null, traits: TYPES[base] ?? typeTraits(`bigquery_${base.toLowerCase()}`, 'other') };
}

/** A table function's rows: described by the computed field's `return_table`, not by a type of the catalog. */
const TABLE_RESULT: CatalogType = { schema: 'bigquery', name: 'TABLE', display: 'TABLE', kind: 'pseudo', element: null, traits: typeTraits('bigquery_table', 'other') };

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
  return { serverVersion: 0, tables: out, functions: functions(routines, parameters), enumTypes: [], baseTypes: Object.keys(TYPES).map(catalogType) };
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
