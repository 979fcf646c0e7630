/**
 * What one role can query in one metadata snapshot, before it is turned into GraphQL
 * types: the tables it may select from, their visible columns, relationships and
 * computed fields, and the permission to apply.
 */
import type { CatalogColumn, CatalogFunction, CatalogTable } from '../catalog/types.js';
import type { ComputedCall, Join } from '../ir/boolexp.js';
import type { SourceMetadata, TableMetadata } from '../metadata/types.js';
import type { Capabilities } from '../backends/faces/admin.js';
import type { SourceNaming } from './naming.js';
import type { TableTexts } from './table-texts.js';
import { sortable } from '../catalog/type-traits.js';
import type { DeletePermission, InsertPermission, SelectPermission, UpdatePermission } from '../metadata/resolve/role-permissions.js';

export interface ColumnInfo {
  column: CatalogColumn;
  fieldName: string;
  description: string | null;
}

export interface RelationshipInfo {
  name: string;
  fieldName: string;
  kind: 'object' | 'array';
  join: Join;
  targetKey: string;
  description: string | null;
}

export interface ComputedFieldInfo {
  name: string;
  fieldName: string;
  fn: CatalogFunction;
  /** Arguments after the row (and session) argument, exposed as `args`. */
  extraArgs: CatalogFunction['args'];
  /** How a boolean expression calls it on a row; names the argument that receives the session variables as JSON, if any. */
  call: ComputedCall;
  /** Index of the argument that receives the row (null: columns of the row are mapped to arguments). */
  tableArgument: number | null;
  /** [argument index, column] of each argument a column of the row fills (BigQuery's `argument_mapping`). */
  columnArguments: [number, string][];
  /** The table key (`tableKey`) of the rows a set-returning field gives, else null (scalar). */
  returnsTable: string | null;
  description: string | null;
}

/** A computed field `order_by` sorts by, as the well-known engine does: scalar, ordered, with no arguments of its own. */
export const orderableComputedField = (cf: ComputedFieldInfo): boolean =>
  cf.returnsTable === null && cf.extraArgs.length === 0 && sortable(cf.fn.returnType.traits);

/** A tracked table's catalog entry and names, the same for every role. */
export interface TableIdentity {
  key: string;
  /** What the source's backend supports: root fields and arguments beyond it are left out. */
  capabilities: Capabilities;
  /** The source's settings: its `tables` are left out (tracked-tables.ts keeps a table's identity while its settings stay the same objects). */
  source: SourceMetadata;
  naming: SourceNaming;
  meta: TableMetadata;
  catalog: CatalogTable;
  identifier: string;
  texts: TableTexts;
}

/** A table as one role may select from it: the columns, relationships and computed fields it sees. */
export interface TableInfo extends TableIdentity {
  permission: SelectPermission;
  columns: ColumnInfo[];
  relationships: RelationshipInfo[];
  computedFields: ComputedFieldInfo[];
}

/** A table the role may insert into, update or delete from. */
export interface MutableTableInfo extends TableIdentity {
  /** Every column with its GraphQL name (inputs pick the permitted ones). */
  columns: ColumnInfo[];
  insert: InsertPermission | null;
  update: UpdatePermission | null;
  delete: DeletePermission | null;
  /** The same table as the role may select it (for `returning`), or null. */
  selectable: TableInfo | null;
  /** Relationships to tables the role may insert into (nested inserts). */
  relationships: RelationshipInfo[];
}

/** An enum table (`is_enum`): its values type every column that references it, whoever may select it. */
export interface EnumTableInfo {
  source: SourceMetadata;
  catalog: CatalogTable;
  naming: SourceNaming;
  identifier: string;
  values: { value: string; comment: string | null }[];
}

export interface RoleModel {
  role: string;
  tables: Map<string, TableInfo>;
  functions: FunctionInfo[];
  mutable: Map<string, MutableTableInfo>;
}

export interface FunctionInfo {
  fn: CatalogFunction;
  /** The table whose rows it returns, as the role sees it. */
  table: TableInfo;
  rootName: string;
  aggregateName: string;
  sessionArgument: string | null;
  /** Arguments the caller gives (all but the session argument). */
  inputArgs: CatalogFunction['args'];
  description: string | null;
}
