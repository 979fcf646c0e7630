/**
 * What a backend's introspection tells about a source database: its tables, functions
 * and enum types, in one vocabulary for every backend. Plain data only: it crosses
 * threads inside metadata snapshots and is stored as JSON, so its shape is fixed.
 * PostgreSQL came first, so type kinds and categories use its codes (pg_type.typtype,
 * typcategory); another backend maps its own types onto them.
 */

/**
 * A schema-qualified object name. Backends with another level of naming map onto it:
 * BigQuery's dataset is the schema, SQL Server's schema is the schema.
 */
export interface QualifiedName {
  schema: string;
  name: string;
}

/** A column's, argument's or function result's type. */
export interface CatalogType {
  schema: string;
  /** pg_type.typname, e.g. `int4`, `text`, `_int4` for arrays, a user enum's name. */
  name: string;
  /** format_type() text, e.g. `integer`, `timestamp with time zone`, `integer[]`. */
  display: string;
  /** pg_type.typtype: b base, c composite, d domain, e enum, p pseudo, r range, m multirange. */
  kind: 'b' | 'c' | 'd' | 'e' | 'p' | 'r' | 'm';
  /** pg_type.typcategory, e.g. `N` numeric, `S` string, `A` array, `U` user. */
  category: string;
  /** Element type of an array type (schema-qualified typname), else null. */
  element: QualifiedName | null;
}

export interface CatalogColumn {
  name: string;
  /** 1-based attnum. */
  position: number;
  type: CatalogType;
  nullable: boolean;
  /** pg_get_expr of the default, or null. */
  default: string | null;
  isIdentity: boolean;
  isGenerated: boolean;
  /** The database takes no value for it in an insert or update (SQL Server's IDENTITY and computed columns). */
  immutable?: true;
  comment: string | null;
}

export interface CatalogConstraint {
  name: string;
  columns: string[];
}

export interface CatalogForeignKey {
  name: string;
  /** Columns of this table, in constraint order. */
  columns: string[];
  refTable: QualifiedName;
  /** Referenced columns, index-aligned with `columns`. */
  refColumns: string[];
}

export type RelationKind = 'table' | 'view' | 'materialized_view' | 'foreign_table' | 'partitioned_table';

export interface CatalogTable {
  /** The database's object id (pg_class oid): follows a table through renames (run_sql DDL). */
  oid: number;
  schema: string;
  name: string;
  kind: RelationKind;
  comment: string | null;
  columns: CatalogColumn[];
  primaryKey: CatalogConstraint | null;
  uniqueConstraints: CatalogConstraint[];
  foreignKeys: CatalogForeignKey[];
  /** Every constraint name of the table (pk, unique, fk, check, exclusion): they must be GraphQL names to track it. */
  constraintNames: string[];
  /** For views: whether INSERT/UPDATE/DELETE are possible (information_schema semantics). */
  insertable: boolean;
  updatable: boolean;
  deletable: boolean;
  /**
   * How a distributed database places the table across its nodes (Citus: `pg_dist_partition`);
   * absent on a single-node database, where every table is `local`. Joins between tables are
   * limited by it (`metadata/distribution.ts`).
   */
  distribution?: TableDistribution;
}

/** `distributed`: sharded by `column` (null: a single shard); `reference`: copied to every node; `local`: on one node. */
export interface TableDistribution {
  kind: 'distributed' | 'reference' | 'local';
  column: string | null;
}

export interface CatalogFunctionArg {
  /** Null for an unnamed argument. */
  name: string | null;
  type: CatalogType;
  hasDefault: boolean;
}

export interface CatalogFunction {
  schema: string;
  name: string;
  /** Several rows share schema+name when the function is overloaded. */
  oid: number;
  comment: string | null;
  volatility: 'immutable' | 'stable' | 'volatile';
  returnsSet: boolean;
  returnType: CatalogType;
  /** Input arguments only (IN / INOUT / VARIADIC), in order. */
  args: CatalogFunctionArg[];
  language: string;
  /** For aggregate/window functions `true`; they can't be tracked. */
  isAggregate: boolean;
  /** A VARIADIC argument: such functions can't be tracked. */
  hasVariadic: boolean;
}

export interface CatalogEnumType {
  schema: string;
  name: string;
  values: string[];
}

/** The whole introspected catalog of one source. */
export interface DatabaseCatalog {
  /** The server's version as a number (PostgreSQL: server_version_num, e.g. 150018). */
  serverVersion: number;
  tables: CatalogTable[];
  functions: CatalogFunction[];
  enumTypes: CatalogEnumType[];
}

export function qualifiedKey(q: QualifiedName): string {
  return `${q.schema}.${q.name}`;
}

/** A table's key among all sources' tables: its source and qualified name. */
export const tableKey = (source: string, t: QualifiedName): string => `${source}\u0000${qualifiedKey(t)}`;
