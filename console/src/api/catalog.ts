/**
 * What the console reads from a source's own catalog (`pg_catalog`) with read-only `run_sql`, as
 * the well-known console does: schemas, tables and views, functions, columns with their types,
 * and foreign keys. Each read is one query (`readJson`).
 */
import type { QualifiedTable } from './metadata';
import { readJson, sqlLiteral, sqlTable } from './sql';

/** The engine's own schema, PostgreSQL's, and the well-known engine's catalog (in a database moved from it) are not the user's. */
const USER_SCHEMA = `n.nspname NOT IN ('information_schema', 'service_catalog', 'hdb_catalog') AND n.nspname NOT LIKE 'pg\\_%'`;

export async function readSchemas(source: string): Promise<string[]> {
  const rows = await readJson<{ name: string }>(source, `SELECT n.nspname AS name FROM pg_namespace n WHERE ${USER_SCHEMA} ORDER BY 1`);
  return rows.map((r) => r.name);
}

export type RelationKind = 'table' | 'view' | 'materialized view' | 'foreign table';

export interface Relation {
  name: string;
  kind: RelationKind;
}

export const readRelations = (source: string, schema: string): Promise<Relation[]> =>
  readJson<Relation>(
    source,
    `SELECT c.relname AS name, CASE c.relkind WHEN 'v' THEN 'view' WHEN 'm' THEN 'materialized view' WHEN 'f' THEN 'foreign table' ELSE 'table' END AS kind
     FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = ${sqlLiteral(schema)} AND c.relkind IN ('r', 'p', 'v', 'm', 'f') AND NOT c.relispartition ORDER BY 1`,
  );

export interface FunctionInfo {
  name: string;
  /** Returns rows of a table or composite type: what can be tracked as a root field. */
  trackable: boolean;
}

export const readFunctions = (source: string, schema: string): Promise<FunctionInfo[]> =>
  readJson<FunctionInfo>(
    source,
    `SELECT p.proname AS name, bool_or(t.typtype = 'c') AS trackable
     FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace JOIN pg_type t ON t.oid = p.prorettype
     WHERE n.nspname = ${sqlLiteral(schema)} AND p.prokind = 'f' GROUP BY p.proname ORDER BY 1`,
  );

export interface Column {
  name: string;
  type: string;
  nullable: boolean;
  default: string | null;
  primary: boolean;
}

export const readColumns = (source: string, table: QualifiedTable): Promise<Column[]> =>
  readJson<Column>(
    source,
    `SELECT a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type, NOT a.attnotnull AS nullable,
       pg_get_expr(d.adbin, d.adrelid) AS default,
       EXISTS (SELECT 1 FROM pg_index i WHERE i.indrelid = a.attrelid AND i.indisprimary AND a.attnum = ANY (i.indkey)) AS primary
     FROM pg_attribute a LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
     WHERE a.attrelid = ${sqlLiteral(sqlTable(table))}::regclass AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum`,
  );

export interface ForeignKey {
  constraint: string;
  table: QualifiedTable;
  columns: string[];
  ref: QualifiedTable;
  refColumns: string[];
}

/** Every foreign key of the source's user schemas. */
export const readForeignKeys = (source: string): Promise<ForeignKey[]> =>
  readJson<ForeignKey>(
    source,
    `SELECT c.conname AS constraint,
       json_build_object('schema', n.nspname, 'name', t.relname) AS table,
       (SELECT json_agg(a.attname ORDER BY k.i) FROM unnest(c.conkey) WITH ORDINALITY k(n, i) JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.n) AS columns,
       json_build_object('schema', rn.nspname, 'name', rt.relname) AS ref,
       (SELECT json_agg(a.attname ORDER BY k.i) FROM unnest(c.confkey) WITH ORDINALITY k(n, i) JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.n) AS "refColumns"
     FROM pg_constraint c
       JOIN pg_class t ON t.oid = c.conrelid JOIN pg_namespace n ON n.oid = t.relnamespace
       JOIN pg_class rt ON rt.oid = c.confrelid JOIN pg_namespace rn ON rn.oid = rt.relnamespace
     WHERE c.contype = 'f' AND ${USER_SCHEMA} ORDER BY 1`,
  );

export interface TypedColumn {
  name: string;
  /** As PostgreSQL prints it (`integer`, `text[]`). */
  type: string;
  /** pg_type.typcategory: S string, N numeric, B boolean, A array, U user-defined (jsonb), … */
  category: string;
  typeName: string;
}

/** The columns, with their types, of every table and view of the source's user schemas. */
export const readTableColumns = (source: string): Promise<{ table: QualifiedTable; columns: TypedColumn[] }[]> =>
  readJson(
    source,
    `SELECT json_build_object('schema', n.nspname, 'name', c.relname) AS table,
       json_agg(json_build_object('name', a.attname, 'type', format_type(a.atttypid, a.atttypmod), 'category', t.typcategory, 'typeName', t.typname) ORDER BY a.attnum) AS columns
     FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped JOIN pg_type t ON t.oid = a.atttypid
     WHERE c.relkind IN ('r', 'p', 'v', 'm', 'f') AND ${USER_SCHEMA} GROUP BY n.nspname, c.relname`,
  );

export interface TableColumns {
  table: QualifiedTable;
  columns: string[];
}

/** The column names of every table and view of the source's user schemas. */
export const readColumnNames = async (source: string): Promise<TableColumns[]> =>
  (await readTableColumns(source)).map((t) => ({ table: t.table, columns: t.columns.map((c) => c.name) }));

/**
 * What the functions that may be computed fields (one argument is a table's row) return, which
 * leaves out extensions' thousands: `returnsRows` when a composite type or a set (rows of a table).
 */
export const readComputedFieldFunctions = (source: string): Promise<(TypedColumn & { schema: string; returnsRows: boolean })[]> =>
  readJson(
    source,
    `SELECT n.nspname AS schema, p.proname AS name, format_type(p.prorettype, NULL) AS type, t.typcategory AS category, t.typname AS "typeName", (p.proretset OR t.typtype = 'c') AS "returnsRows"
     FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace JOIN pg_type t ON t.oid = p.prorettype
     WHERE ${USER_SCHEMA} AND EXISTS (SELECT 1 FROM unnest(p.proargtypes) AS a(type) JOIN pg_class c ON c.reltype = a.type)
     ORDER BY p.oid`,
  );

/** The word DDL names the relation with (`TABLE`, `VIEW`, `MATERIALIZED VIEW`, `FOREIGN TABLE`). */
export async function relationKeyword(source: string, table: QualifiedTable): Promise<string> {
  const kind = (await readRelations(source, table.schema)).find((r) => r.name === table.name)?.kind ?? 'table';
  return kind.toUpperCase();
}

/** The definitions (`CREATE OR REPLACE FUNCTION …`) of the functions of that name, overloads included. */
export async function readFunctionDefinitions(source: string, fn: QualifiedTable): Promise<string[]> {
  const rows = await readJson<{ definition: string }>(
    source,
    `SELECT pg_get_functiondef(p.oid) AS definition FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
     WHERE n.nspname = ${sqlLiteral(fn.schema)} AND p.proname = ${sqlLiteral(fn.name)} ORDER BY p.oid`,
  );
  return rows.map((r) => r.definition);
}
