/**
 * What one catalog query tells about a PostgreSQL database (see introspect.ts).
 * Plain data only: it crosses threads inside metadata snapshots (msgpack).
 */

export interface QualifiedName {
  schema: string;
  name: string;
}

export interface PgType {
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

export interface PgColumn {
  name: string;
  /** 1-based attnum. */
  position: number;
  type: PgType;
  nullable: boolean;
  /** pg_get_expr of the default, or null. */
  default: string | null;
  isIdentity: boolean;
  isGenerated: boolean;
  comment: string | null;
}

export interface PgConstraint {
  name: string;
  columns: string[];
}

export interface PgForeignKey {
  name: string;
  /** Columns of this table, in constraint order. */
  columns: string[];
  refTable: QualifiedName;
  /** Referenced columns, index-aligned with `columns`. */
  refColumns: string[];
}

export type PgRelationKind = 'table' | 'view' | 'materialized_view' | 'foreign_table' | 'partitioned_table';

export interface PgTable {
  /** pg_class oid: follows a table through renames (run_sql DDL). */
  oid: number;
  schema: string;
  name: string;
  kind: PgRelationKind;
  comment: string | null;
  columns: PgColumn[];
  primaryKey: PgConstraint | null;
  uniqueConstraints: PgConstraint[];
  foreignKeys: PgForeignKey[];
  /** Every constraint name of the table (pk, unique, fk, check, exclusion): they must be GraphQL names to track it. */
  constraintNames: string[];
  /** For views: whether INSERT/UPDATE/DELETE are possible (information_schema semantics). */
  insertable: boolean;
  updatable: boolean;
  deletable: boolean;
}

export interface PgFunctionArg {
  /** Null for an unnamed argument. */
  name: string | null;
  type: PgType;
  hasDefault: boolean;
}

export interface PgFunction {
  schema: string;
  name: string;
  /** Several rows share schema+name when the function is overloaded. */
  oid: number;
  comment: string | null;
  volatility: 'immutable' | 'stable' | 'volatile';
  returnsSet: boolean;
  returnType: PgType;
  /** Input arguments only (IN / INOUT / VARIADIC), in order. */
  args: PgFunctionArg[];
  language: string;
  /** For aggregate/window functions `true`; they can't be tracked. */
  isAggregate: boolean;
  /** A VARIADIC argument: such functions can't be tracked. */
  hasVariadic: boolean;
}

export interface PgEnumType {
  schema: string;
  name: string;
  values: string[];
}

export interface PgIntrospection {
  /** server_version_num, e.g. 150018. */
  serverVersion: number;
  tables: PgTable[];
  functions: PgFunction[];
  enumTypes: PgEnumType[];
}

export function qualifiedKey(q: QualifiedName): string {
  return `${q.schema}.${q.name}`;
}
