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
import { resolveSources } from './resolve/sources.js';
import { resolveTables } from './resolve/tables.js';
import type { Inconsistency, ResolvedMetadata, ResolvedSource, SourceCatalog } from './resolve/types.js';
import type { InconsistentObject, Metadata } from './types.js';

export type { Inconsistency, SourceCatalog } from './resolve/types.js';

export function resolveMetadata(m: Metadata, catalogs: ReadonlyMap<string, SourceCatalog>): ResolvedMetadata {
  const { connected, inconsistencies } = resolveSources(m, catalogs);
  const sources = new Map<string, ResolvedSource>();
  for (const c of connected) {
    const { source, inconsistencies: missing } = resolveTables(c);
    sources.set(source.name, source);
    inconsistencies.push(
      ...missing,
      ...resolveRelationships(source),
      ...resolveComputedFields(source),
      ...resolveFunctions(c.metadata, c.introspection),
      ...resolvePermissions(source),
    );
  }
  inconsistencies.push(...resolveInheritedRoles(m, sources.values()));
  return { sources, inconsistencies };
}

export function resolveInconsistencies(m: Metadata, catalogs: ReadonlyMap<string, SourceCatalog>): Inconsistency[] {
  return resolveMetadata(m, catalogs).inconsistencies;
}

/** Identity of an inconsistency across resolutions: its type and name. */
export const inconsistencyKey = (o: InconsistentObject) => `${o.type}\u0000${o.name}`;
