/**
 * Resolution: the metadata checked against the databases and remote servers, in ordered stages,
 * each in resolve/ with its inputs as arguments and a named output:
 *
 *   1 sources            resolveSources           connected sources (catalog read)
 *   2 tables             resolveTables            tracked tables, in the source's catalog
 *   3 relationships      resolveRelationships     on tables resolved in 2
 *   4 computed fields    resolveComputedFields
 *   5 functions          resolveFunctions
 *   6 permissions        resolvePermissions       boolean expressions over 2-4
 *   7 inherited roles    resolveInheritedRoles
 *   -- the model ends here (resolveMetadata: the schema builder's, which reads the rest of the
 *      document's inconsistencies from the snapshot) --
 *   8 event triggers, cron triggers  eventTriggerInconsistencies, cronTriggerInconsistencies
 *   9 remote schemas     resolveRemoteSchemas     reachable, names free, permissions fitting
 *  10 actions, custom types  actionInconsistencies, actionNameClashes
 *  11 remote relationships   remoteRelationshipInconsistencies
 *  12 collections, allow-list, REST endpoints: queries valid against the admin schema
 *  13 root fields        rootFieldConflicts       no field of a root defined by two objects
 *                                                 (not an inconsistency: the change is refused)
 *
 * Each stage sees only what earlier stages resolved, so whatever depends on an inconsistent
 * object is inconsistent too. Nothing here fails; every object that does not fit is recorded as
 * an inconsistency, with a way to remove it (drop_inconsistent_metadata, cascades). What a run
 * keeps for the next is the caller's (`ResolveMemo`, one per thread); the admin GraphQL schema
 * stages 9-13 check names and queries against is built by the caller's `AdminSchemaChecks`
 * (compiler/collection-validation.ts): metadata/ builds no schema.
 */
import { resolveFunctions } from './functions.js';
import { resolveComputedFields } from './resolve/computed-fields.js';
import { resolveInheritedRoles } from './resolve/inherited-roles.js';
import { resolvePermissions } from './resolve/permissions.js';
import { resolveRelationships } from './resolve/relationships.js';
import { resolveSources, type ConnectedSource } from './resolve/sources.js';
import { configurationProblem, resolveTables } from './resolve/tables.js';
import { NO_PERMISSIONS, type Inconsistency, type ResolvedMetadata, type ResolvedSource, type ResolvedTable, type SourceCatalog } from './resolve/types.js';
import { qualifiedKey, type DatabaseCatalog } from '../catalog/types.js';
import type { InconsistentObject, Metadata, SourceMetadata, TableMetadata } from './types.js';
import { changedPlaces } from '../util/same-picks.js';
import type { KeptFields, ResolveMemo } from './resolve/memo.js';
import type { IntrospectionQuery } from 'graphql';
import { actions } from './actions.js';
import { storedCustomTypes } from './custom-types.js';
import { eventTriggerInconsistencies } from './event-triggers.js';
import { remoteSchemas } from './remote-schemas.js';
import { cronTriggerInconsistencies } from './scheduled-triggers.js';
import { actionInconsistencies, actionNameClashes, actionObjectName, type SchemaNames } from './resolve/actions.js';
import { remoteClientSchema } from './resolve/remote-permissions.js';
import { remoteRelationshipInconsistencies } from './resolve/remote-relationships.js';
import { remoteSchemaObjectName, resolveRemoteSchemas, servedRemoteNames, type RemoteState } from './resolve/remote-schemas.js';
import { rootFieldConflicts, type RootFieldClaim, type RootFieldConflict } from './resolve/root-fields.js';
import type { ActionMetadata } from './actions.js';

export type { Inconsistency, SourceCatalog } from './resolve/types.js';

/**
 * The parts of a table entry its fields are resolved from (relationships, computed fields: what
 * boolean expressions refer to). Of its configuration (custom names, which expressions never
 * use: they name columns and relationships as stored) only whether it is one a command would
 * store: one that is not keeps the table out. A bulk of customizations at 400 tables × 24 roles
 * checked every permission again at each of them (80 ms a command).
 */
const sameFields = (a: TableMetadata, b: TableMetadata) =>
  a === b ||
  (a.table === b.table &&
    (a.configuration === b.configuration || (configurationProblem(a) === null && configurationProblem(b) === null)) &&
    a.object_relationships === b.object_relationships &&
    a.array_relationships === b.array_relationships &&
    a.computed_fields === b.computed_fields);

/**
 * Whether a source's fields are resolved from the same parts as `kept`: its catalog and, per
 * table, what shapes its fields. Only the places a draft wrote are compared when it made the
 * list from the kept one (util/same-picks.ts `changedPlaces`).
 */
function sameFieldParts(c: ConnectedSource, kept: KeptFields): boolean {
  const now = c.metadata.tables;
  if (kept.introspection !== c.introspection || kept.entries.length !== now.length) return false;
  const places = changedPlaces(kept.entries, now);
  return places ? places.every((i) => sameFields(kept.entries[i]!, now[i]!)) : kept.entries.every((t, i) => sameFields(t, now[i]!));
}

/**
 * A source's tables with their relationships and computed fields: what boolean expressions
 * may refer to. Committed metadata is frozen and a change shares what it does not touch:
 * while a source's catalog and every table's fields are the same objects as last time (a
 * permission change, say), the fields resolved then are kept and only the records of the
 * entries that changed are new (each with its current entry and empty permissions).
 */
function resolveFields(c: ConnectedSource, memo: ResolveMemo): { source: ResolvedSource; inconsistencies: Inconsistency[]; shape: object } {
  const frozen = Object.isFrozen(c.metadata.tables);
  const kept = memo.fields.get(c.metadata.name);
  if (frozen && kept && sameFieldParts(c, kept)) {
    // The records handed out last, but for the entries that are new objects (same places, same tables).
    const now = c.metadata.tables;
    const changed = new Map<string, ResolvedTable>();
    for (const i of changedPlaces(kept.handed, now) ?? now.keys()) {
      const entry = now[i]!;
      if (entry === kept.handed[i]) continue;
      const key = qualifiedKey(entry.table);
      const table = kept.tables.get(key);
      if (table) changed.set(key, { ...table, entry, permissions: NO_PERMISSIONS });
    }
    let tables = kept.records;
    if (changed.size > 0) {
      tables = new Map(kept.records);
      for (const [key, table] of changed) tables.set(key, table);
      memo.derivedRecords.set(tables, { from: new WeakRef(kept.records), keys: [...changed.keys()] });
    }
    // Their field parts are the kept ones: the next change is compared with this list, a draft apart.
    kept.entries = now;
    kept.records = tables;
    kept.handed = now;
    return { source: { name: c.metadata.name, metadata: c.metadata, introspection: c.introspection, tables }, inconsistencies: [...kept.inconsistencies], shape: kept.shape };
  }
  const { source, inconsistencies } = resolveTables(c);
  inconsistencies.push(...resolveRelationships(source), ...resolveComputedFields(source));
  const shape = {};
  if (frozen) memo.fields.set(c.metadata.name, { introspection: c.introspection, entries: c.metadata.tables, shape, tables: new Map(source.tables), inconsistencies: [...inconsistencies], records: source.tables, handed: c.metadata.tables });
  return { source, inconsistencies, shape };
}

/** One source up to its fields (permissions not checked): for checking a new permission against it. */
export function resolveSourceFields(source: SourceMetadata, introspection: DatabaseCatalog, memo: ResolveMemo): ResolvedSource {
  return resolveFields({ metadata: source, introspection }, memo).source;
}

export function resolveMetadata(m: Metadata, catalogs: ReadonlyMap<string, SourceCatalog>, memo: ResolveMemo): ResolvedMetadata {
  const { connected, inconsistencies } = resolveSources(m, catalogs);
  const sources = new Map<string, ResolvedSource>();
  for (const c of connected) {
    const { source, inconsistencies: fields, shape } = resolveFields(c, memo);
    sources.set(source.name, source);
    inconsistencies.push(...fields, ...resolveFunctions(c.metadata, c.introspection), ...resolvePermissions(source, shape, memo));
  }
  const roles = resolveInheritedRoles(m, sources.values());
  inconsistencies.push(...roles.inconsistencies);
  return { sources, inheritedRoles: roles.consistent, inconsistencies };
}

/** Identity of an inconsistency across resolutions: its type and name. */
export const inconsistencyKey = (o: InconsistentObject) => `${o.type}\u0000${o.name}`;

/** What the remote schemas and actions served alongside the sources are, for the admin schema as clients see it. */
export interface Served {
  remotes: Record<string, IntrospectionQuery>;
  inconsistencies: InconsistentObject[];
}

/** The admin GraphQL schema's part of resolution (stages 9-13), which the caller builds (and keeps between runs). */
export interface AdminSchemaChecks {
  /** Each consistent table's, function's, namespaced source's and action's root fields (`actions`: the consistent ones), named as the schema builder names them. */
  rootFieldClaims(resolved: ResolvedMetadata, actions: readonly ActionMetadata[]): RootFieldClaim[];
  /** The names the admin schema of the sources alone has: remote schemas and actions must take none. */
  sourceNames(m: Metadata, catalogs: ReadonlyMap<string, SourceCatalog>, resolved: ResolvedMetadata): SchemaNames;
  /** The queries of allow-listed and REST-served collections that do not validate against the admin schema with `served`. */
  collections(m: Metadata, catalogs: ReadonlyMap<string, SourceCatalog>, resolved: ResolvedMetadata, served: Served): Inconsistency[];
}

/** What resolving a whole document reads besides it. */
export interface DocumentInputs {
  catalogs: ReadonlyMap<string, SourceCatalog>;
  remotes: ReadonlyMap<string, RemoteState>;
  env: NodeJS.ProcessEnv;
}

/** What resolving a whole document finds. */
export interface DocumentVerdict {
  inconsistencies: Inconsistency[];
  /** Root fields two objects define: a change making one is refused (resolve/root-fields.ts). */
  conflicts: RootFieldConflict[];
}

/** Every stage (1-13): the whole document's inconsistencies and root-field conflicts, as the metadata actor reports them. */
export function resolveDocument(m: Metadata, inputs: DocumentInputs, memo: ResolveMemo, admin: AdminSchemaChecks): DocumentVerdict {
  const { catalogs, remotes, env } = inputs;
  const resolved = resolveMetadata(m, catalogs, memo);
  const out = [...resolved.inconsistencies, ...eventTriggerInconsistencies(m, catalogs, env), ...cronTriggerInconsistencies(m, env), ...actionInconsistencies(m, resolved, env)];
  const withActions = actions(m).length > 0 || Object.keys(storedCustomTypes(m)).length > 0;
  if (remoteSchemas(m).length === 0 && !withActions) {
    const inconsistencies = [...out, ...admin.collections(m, catalogs, resolved, { remotes: {}, inconsistencies: [] }), ...remoteRelationshipInconsistencies(m, resolved, () => null)];
    return { inconsistencies, conflicts: rootFieldConflicts(admin.rootFieldClaims(resolved, []), memo) };
  }
  const names = admin.sourceNames(m, catalogs, resolved);
  const broken = resolveRemoteSchemas(m, remotes, { rootField: names.rootField, type: (name) => names.type(name) !== undefined }, memo);
  const inconsistent = new Set(broken.filter((i) => i.object.type === 'remote_schema').map((i) => i.object.name));
  const consistent = (name: string) => {
    const intro = remotes.get(name)?.introspection;
    return intro && !inconsistent.has(remoteSchemaObjectName(name)) ? intro : null;
  };
  // Actions and custom types take no name of the sources' nor of a consistent remote schema's (which would break the schema).
  if (withActions) {
    const remote = servedRemoteNames(m, consistent);
    // A root field the sources define too is a conflict of stage 13, as the well-known engine reports it.
    out.push(...actionNameClashes(m, { rootField: remote.rootField, type: (name) => names.type(name) ?? (remote.type(name) ? 'other' : undefined) }));
  }
  // A collection's query may read remote schemas' fields (and actions'), as a client's does.
  const servedRemotes = Object.fromEntries(
    remoteSchemas(m).flatMap((r) => {
      const intro = consistent(r.name);
      return intro ? [[r.name, intro]] : [];
    }),
  );
  const served = { remotes: servedRemotes, inconsistencies: [...out, ...broken].map((i) => i.object) };
  const schemaOf = (name: string) => {
    const intro = consistent(name);
    return intro ? remoteClientSchema(intro, memo) : null;
  };
  const inconsistencies = [...out, ...admin.collections(m, catalogs, resolved, served), ...broken, ...remoteRelationshipInconsistencies(m, resolved, schemaOf)];
  // The actions the schema serves claim their fields beside the sources'.
  const brokenActions = new Set(out.filter((i) => i.object.type === 'action').map((i) => i.object.name));
  const servedActions = actions(m).filter((a) => !brokenActions.has(actionObjectName(a.name)));
  return { inconsistencies, conflicts: rootFieldConflicts(admin.rootFieldClaims(resolved, servedActions), memo) };
}
