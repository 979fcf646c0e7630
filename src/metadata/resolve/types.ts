/**
 * What resolution produces: each source's tracked tables as the database has them,
 * with the relationships, computed fields and permissions that resolved, plus the
 * inconsistencies for those that did not. Later stages read earlier stages' output,
 * so an object that depends on an inconsistent one is itself inconsistent.
 */
import type { CatalogColumn, CatalogFunction, DatabaseCatalog, CatalogTable, CatalogType, QualifiedName } from '../../catalog/types.js';
import type { BoolExp } from '../../ir/boolexp.js';
import type { Json } from '../../util/decode.js';
import type { InconsistentObject, Metadata, SourceMetadata, TableMetadata } from '../types.js';

export interface SourceCatalog {
  introspection: DatabaseCatalog | null;
  error: string | null;
}

export interface Inconsistency {
  object: InconsistentObject;
  /** Removes the object from a draft document (drop_inconsistent_metadata, cascades). */
  remove(m: Metadata): void;
  /**
   * Reported but never blocking a command and never dropped: conflicting inherited
   * permissions (spec "Inherited role" rule 5) are resolved by adding a permission.
   */
  informational?: boolean;
}

export type RelationshipKind = 'object' | 'array';

export interface ResolvedRelationship {
  name: string;
  kind: RelationshipKind;
  target: QualifiedName;
  /** Pairs [column of this table, column of the target]. */
  mapping: [string, string][];
  /** Set by `manual_configuration` (no foreign key behind it). */
  manual: boolean;
  comment: string | null;
}

export type ComputedFieldReturn = { kind: 'scalar'; type: CatalogType } | { kind: 'table'; table: QualifiedName };

export interface ResolvedComputedField {
  name: string;
  function: CatalogFunction;
  returns: ComputedFieldReturn;
  /** Index of the row argument among the function's arguments (null: columns are mapped instead). */
  tableArgument: number | null;
  /** BigQuery's `argument_mapping`: [argument index, column of the row] for each mapped argument. */
  columnArguments: [number, string][];
  /** Index of the JSON session argument, if any. */
  sessionArgument: number | null;
  /** Arguments the caller supplies (all but the row and session ones). */
  inputArguments: CatalogFunction['args'];
  /** The field's comment, else the function's, else a generated one (spec "Computed field"). */
  description: string;
}

export type PermissionKind = 'insert' | 'select' | 'update' | 'delete';
export const PERMISSION_KINDS: readonly PermissionKind[] = ['insert', 'select', 'update', 'delete'];

/**
 * A permission checked against its table: its boolean expressions parsed. Roles with the same
 * permission on a table (word for word) share one (resolve/permissions.ts), so it names no role:
 * what is derived from it is kept by it (role-permissions.ts).
 */
export interface ResolvedPermission {
  kind: PermissionKind;
  /** Columns the role may use (`'*'` expanded). */
  columns: string[];
  computedFields: string[];
  /** `filter` (select, update, delete). */
  filter: BoolExp | null;
  /** `check` (insert, update). */
  check: BoolExp | null;
  /** `set` presets, column to literal or session variable text. */
  set: Record<string, Json>;
  limit: number | null;
  allowAggregations: boolean;
  queryRootFields: string[] | null;
  subscriptionRootFields: string[] | null;
  backendOnly: boolean;
}

export interface ResolvedTable {
  name: QualifiedName;
  catalog: CatalogTable;
  entry: TableMetadata;
  columns: Map<string, CatalogColumn>;
  relationships: Map<string, ResolvedRelationship>;
  computedFields: Map<string, ResolvedComputedField>;
  permissions: Record<PermissionKind, Map<string, ResolvedPermission>>;
}

export interface ResolvedSource {
  name: string;
  metadata: SourceMetadata;
  introspection: DatabaseCatalog;
  /** Consistent tracked tables by `schema.name`. */
  tables: Map<string, ResolvedTable>;
}

export interface ResolvedMetadata {
  /** Connected sources by name. */
  sources: Map<string, ResolvedSource>;
  /** Each consistent inherited role's parents. */
  inheritedRoles: Map<string, string[]>;
  inconsistencies: Inconsistency[];
}

/** Permissions not resolved (yet): resolvePermissions gives every table maps of its own before filling them. */
export const NO_PERMISSIONS: ResolvedTable['permissions'] = Object.freeze(Object.fromEntries(PERMISSION_KINDS.map((k) => [k, new Map()]))) as ResolvedTable['permissions'];

/** Root fields an object defines (resolve/root-fields.ts). */
export interface RootFieldClaim {
  /** The object as the message names it: `table author in source default`, `action hello`. */
  readonly origin: string;
  /** Each field as `<selection set>\u0000<field name>`: a root (`query_root`) or a namespace type, and the field. */
  readonly fields: readonly string[];
}

export interface RootFieldConflict {
  selectionSet: string;
  field: string;
  /** The claimants, in metadata order. */
  origins: string[];
}
