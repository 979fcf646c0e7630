/**
 * Resolution: the metadata checked against what the databases look like, in ordered
 * stages (resolve/): sources → tables → relationships → computed fields → functions
 * → permissions → inherited roles. Each stage sees only what earlier stages resolved,
 * so whatever depends on an inconsistent object is inconsistent too. Nothing here
 * fails; every object that does not fit is recorded as an inconsistency, with a way
 * to remove it (drop_inconsistent_metadata, cascades). Pure: the schema builder runs
 * it too.
 */
import { resolveFunctions } from './functions.js';
import { resolveComputedFields } from './resolve/computed-fields.js';
import { resolveInheritedRoles } from './resolve/inherited-roles.js';
import { resolvePermissions } from './resolve/permissions.js';
import { resolveRelationships } from './resolve/relationships.js';
import { resolveSources, type ConnectedSource } from './resolve/sources.js';
import { resolveTables } from './resolve/tables.js';
import { NO_PERMISSIONS, type Inconsistency, type ResolvedMetadata, type ResolvedSource, type ResolvedTable, type SourceCatalog } from './resolve/types.js';
import { qualifiedKey, type DatabaseCatalog } from '../catalog/types.js';
import type { InconsistentObject, Metadata, SourceMetadata, TableMetadata } from './types.js';

export type { Inconsistency, SourceCatalog } from './resolve/types.js';

/** A resolved source's fields, kept with the (frozen) parts they were resolved from. */
interface KeptFields {
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

const keptFields = new Map<string, KeptFields>();

/** Whether a source's fields are resolved from the same parts as `kept`: its catalog and, per table, what shapes its fields. */
function sameFieldParts(c: ConnectedSource, kept: KeptFields): boolean {
  const now = c.metadata.tables;
  if (kept.introspection !== c.introspection || kept.entries.length !== now.length) return false;
  return kept.entries.every(
    (t, i) =>
      t === now[i] ||
      (t.table === now[i]!.table &&
        t.configuration === now[i]!.configuration &&
        t.object_relationships === now[i]!.object_relationships &&
        t.array_relationships === now[i]!.array_relationships &&
        t.computed_fields === now[i]!.computed_fields),
  );
}

/**
 * A source's tables with their relationships and computed fields: what boolean expressions
 * may refer to. Committed metadata is frozen and a change shares what it does not touch:
 * while a source's catalog and every table's fields are the same objects as last time (a
 * permission change, say), the fields resolved then are kept and only the records of the
 * entries that changed are new (each with its current entry and empty permissions).
 */
function resolveFields(c: ConnectedSource): { source: ResolvedSource; inconsistencies: Inconsistency[]; shape: object } {
  const frozen = Object.isFrozen(c.metadata.tables);
  const kept = keptFields.get(c.metadata.name);
  if (frozen && kept && sameFieldParts(c, kept)) {
    // The records handed out last, but for the entries that are new objects (same places, same tables).
    const tables = new Map(kept.records);
    const now = c.metadata.tables;
    for (let i = 0; i < now.length; i++) {
      const entry = now[i]!;
      if (entry === kept.handed[i]) continue;
      const key = qualifiedKey(entry.table);
      const table = kept.tables.get(key);
      if (table) tables.set(key, { ...table, entry, permissions: NO_PERMISSIONS });
    }
    kept.records = tables;
    kept.handed = now;
    return { source: { name: c.metadata.name, metadata: c.metadata, introspection: c.introspection, tables }, inconsistencies: [...kept.inconsistencies], shape: kept.shape };
  }
  const { source, inconsistencies } = resolveTables(c);
  inconsistencies.push(...resolveRelationships(source), ...resolveComputedFields(source));
  const shape = {};
  if (frozen) keptFields.set(c.metadata.name, { introspection: c.introspection, entries: c.metadata.tables, shape, tables: new Map(source.tables), inconsistencies: [...inconsistencies], records: source.tables, handed: c.metadata.tables });
  return { source, inconsistencies, shape };
}

/** One source up to its fields (permissions not checked): for checking a new permission against it. */
export function resolveSourceFields(source: SourceMetadata, introspection: DatabaseCatalog): ResolvedSource {
  return resolveFields({ metadata: source, introspection }).source;
}

export function resolveMetadata(m: Metadata, catalogs: ReadonlyMap<string, SourceCatalog>): ResolvedMetadata {
  const { connected, inconsistencies } = resolveSources(m, catalogs);
  const sources = new Map<string, ResolvedSource>();
  for (const c of connected) {
    const { source, inconsistencies: fields, shape } = resolveFields(c);
    sources.set(source.name, source);
    inconsistencies.push(...fields, ...resolveFunctions(c.metadata, c.introspection), ...resolvePermissions(source, shape));
  }
  const roles = resolveInheritedRoles(m, sources.values());
  inconsistencies.push(...roles.inconsistencies);
  return { sources, inheritedRoles: roles.consistent, inconsistencies };
}

/** Identity of an inconsistency across resolutions: its type and name. */
export const inconsistencyKey = (o: InconsistentObject) => `${o.type}\u0000${o.name}`;
