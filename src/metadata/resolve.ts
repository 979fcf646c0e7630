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
import type { Inconsistency, ResolvedMetadata, ResolvedSource, SourceCatalog } from './resolve/types.js';
import type { PgIntrospection } from '../backends/pg/catalog.js';
import type { InconsistentObject, Metadata, SourceMetadata } from './types.js';

export type { Inconsistency, SourceCatalog } from './resolve/types.js';

/** A source's tables with their relationships and computed fields: what boolean expressions may refer to. */
function resolveFields(c: ConnectedSource): { source: ResolvedSource; inconsistencies: Inconsistency[] } {
  const { source, inconsistencies } = resolveTables(c);
  inconsistencies.push(...resolveRelationships(source), ...resolveComputedFields(source));
  return { source, inconsistencies };
}

const sourceFields = new WeakMap<SourceMetadata, { introspection: PgIntrospection; source: ResolvedSource }>();

/**
 * One source up to its fields (permissions not checked): for checking a new permission
 * against it. Kept per committed (frozen) source and catalog: a source's 5,000 tables are
 * not resolved again for each permission command.
 */
export function resolveSourceFields(source: SourceMetadata, introspection: PgIntrospection): ResolvedSource {
  const known = sourceFields.get(source);
  if (known?.introspection === introspection) return known.source;
  const resolved = resolveFields({ metadata: source, introspection }).source;
  if (Object.isFrozen(source)) sourceFields.set(source, { introspection, source: resolved });
  return resolved;
}

export function resolveMetadata(m: Metadata, catalogs: ReadonlyMap<string, SourceCatalog>): ResolvedMetadata {
  const { connected, inconsistencies } = resolveSources(m, catalogs);
  const sources = new Map<string, ResolvedSource>();
  for (const c of connected) {
    const { source, inconsistencies: fields } = resolveFields(c);
    sources.set(source.name, source);
    inconsistencies.push(...fields, ...resolveFunctions(c.metadata, c.introspection), ...resolvePermissions(source));
  }
  const roles = resolveInheritedRoles(m, sources.values());
  inconsistencies.push(...roles.inconsistencies);
  return { sources, inheritedRoles: roles.consistent, inconsistencies };
}

export function resolveInconsistencies(m: Metadata, catalogs: ReadonlyMap<string, SourceCatalog>): Inconsistency[] {
  return resolveMetadata(m, catalogs).inconsistencies;
}

/** Identity of an inconsistency across resolutions: its type and name. */
export const inconsistencyKey = (o: InconsistentObject) => `${o.type}\u0000${o.name}`;
