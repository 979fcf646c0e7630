/**
 * What is inconsistent in a document, as the metadata actor reports it: the resolution's
 * findings (metadata/resolve.ts, shared with the schema builder) and the queries of the
 * allow-listed collections that do not validate against the admin schema (which only the
 * metadata actor checks: the schema builder serves collections as they are stored).
 */
import { collectionInconsistencies } from '../../compiler/collection-validation.js';
import { resolveMetadata, type Inconsistency, type SourceCatalog } from '../../metadata/resolve.js';
import type { Metadata } from '../../metadata/types.js';
import { eventTriggerInconsistencies } from '../../metadata/event-triggers.js';

export function documentInconsistencies(m: Metadata, catalogs: ReadonlyMap<string, SourceCatalog>): Inconsistency[] {
  const resolved = resolveMetadata(m, catalogs);
  // Event triggers: an environment variable missing at boot, a column gone (spec "Event trigger").
  return [...resolved.inconsistencies, ...collectionInconsistencies(m, catalogs, resolved), ...eventTriggerInconsistencies(m, catalogs, process.env)];
}
