/**
 * What resolution keeps between runs, owned by the thread that resolves (the metadata actor, the
 * schema builder; each has one) and passed in by it: no module keeps a cache of its own.
 * Committed metadata is frozen and shared between versions, so what was resolved from the same
 * objects resolves the same way: a permission change at 5,000 tables re-checks one table's
 * permissions, not 220,000.
 */
import type { GraphQLSchema, IntrospectionQuery } from 'graphql';
import type { CheckedPermission } from '../remote-permissions.js';
import type { TableMetadata } from '../types.js';
import type { Inconsistency, ResolvedTable, RootFieldClaim, RootFieldConflict } from './types.js';

/** A resolved source's fields, kept with the (frozen) parts they were resolved from (resolve.ts). */
export interface KeptFields {
  introspection: unknown;
  entries: readonly TableMetadata[];
  /** Stands for the parts: the same object while they are the same (permissions key on it). */
  shape: object;
  tables: Map<string, ResolvedTable>;
  inconsistencies: Inconsistency[];
  /**
   * The table records handed out last and the entries they were made for: a record whose entry
   * is the same object is handed out again (its permissions are those resolvePermissions gives
   * an unchanged entry on this shape).
   */
  records: Map<string, ResolvedTable>;
  handed: readonly TableMetadata[];
}

/** A table entry's resolved permissions, valid while its source's shape is `shape` (resolve/permissions.ts). */
export interface KeptPermissions {
  shape: object;
  permissions: ResolvedTable['permissions'];
  inconsistencies: Inconsistency[];
}

/** A remote schema built from its introspection, and the permission documents checked against it (resolve/remote-permissions.ts). */
export interface RemoteChecks {
  schema: GraphQLSchema;
  checked: Map<string, CheckedPermission | string>;
}

export class ResolveMemo {
  /** Each source's fields, by source name. */
  readonly fields = new Map<string, KeptFields>();
  /** Each frozen table entry's permissions. */
  readonly permissions = new WeakMap<TableMetadata, KeptPermissions>();
  /** A source's tables map whose every table's permissions are resolved on `shape`, with the inconsistencies found per table (those with any). */
  readonly resolvedPermissions = new WeakMap<ReadonlyMap<string, ResolvedTable>, { shape: object; found: ReadonlyMap<string, Inconsistency[]> }>();
  /** A tables map made from the one handed out before (resolve.ts): that one (weakly: no chain of versions is kept), and the keys whose records are new. */
  readonly derivedRecords = new WeakMap<ReadonlyMap<string, ResolvedTable>, { from: WeakRef<ReadonlyMap<string, ResolvedTable>>; keys: readonly string[] }>();
  /** Each remote schema introspection (frozen in the snapshot) with its checks. */
  readonly remotes = new WeakMap<IntrospectionQuery, RemoteChecks>();
  /** The root-field claims checked last, and the conflicts found (resolve/root-fields.ts). */
  rootFields: { claims: readonly RootFieldClaim[]; conflicts: RootFieldConflict[] } | null = null;
}
