/**
 * What a backend's introspection tells about a source database: its tables, functions
 * and enum types, in one vocabulary for every backend. Plain data only: it crosses
 * threads inside metadata snapshots, so its shape is fixed. A type keeps the backend's own
 * name (for messages and the backend's casts); everything else reads its neutral traits
 * (`TypeTraits`), which the backend's introspection fills.
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
  /** The backend's name of the type (PostgreSQL `int4`, `_int4` for arrays, a user enum's name; SQL Server `nvarchar`). */
  name: string;
  /** The type as the database writes it for people, e.g. `integer`, `timestamp with time zone`, `nvarchar(max)`. */
  display: string;
  /** `composite`: a table's row type (set-returning functions and computed fields return them). */
  kind: TypeKind;
  /** Element type of an array type (schema-qualified name), else null. */
  element: QualifiedName | null;
  traits: TypeTraits;
}

export type TypeKind = 'base' | 'composite' | 'domain' | 'enum' | 'pseudo' | 'range' | 'multirange';

/**
 * Which comparison operators a type has beyond equality and order (`schema/comparison.ts`,
 * `metadata/boolexp-operators.ts`): `binary-json` is JSON stored decomposed, with containment and
 * key operators; `label-tree` a hierarchical label path (PostgreSQL's ltree).
 */
export type TypeFamily = 'numeric' | 'text' | 'boolean' | 'json' | 'binary-json' | 'label-tree' | 'geometry' | 'geography' | 'other';

/** What the neutral layers know of a type: everything they decide by, so that none of them tests a backend's type name. */
export interface TypeTraits {
  /** The GraphQL scalar of its values: `Int`, `Float`, `String`, `Boolean`, or a scalar of that name (`bigint`, `uuid`). */
  scalar: string;
  family: TypeFamily;
  /** sum, avg, stddev and variance apply (and `_inc`). */
  summable: boolean;
  /** min and max apply, and it can be a stream's cursor (ordered types other than JSON, booleans, geometries, arrays). */
  comparable: boolean;
  /** Wider than a JSON number holds exactly: written as a string when numbers are stringified. */
  wide: boolean;
  /**
   * What a non-string literal of a boolean expression must be (strings are left to the
   * database), and the decoder the message names as the well-known engine's: `Int32`,
   * `Double`, `UTCTime`... Null: anything.
   */
  literal: LiteralShape | null;
}

export interface LiteralShape {
  json: 'integer' | 'number' | 'boolean' | 'string';
  decoder: string;
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
  /**
   * Every base type the database has, used or not: their scalars are those an action's custom
   * types may name without declaring them, and an operator's type error lists those it applies to.
   */
  baseTypes: CatalogType[];
}

export function qualifiedKey(q: QualifiedName): string {
  return `${q.schema}.${q.name}`;
}

/** A table's key among all sources' tables: its source and qualified name. */
export const tableKey = (source: string, t: QualifiedName): string => `${source}\u0000${qualifiedKey(t)}`;
