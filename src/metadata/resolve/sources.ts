/** Stage 1: each source is connected and its catalog read, else the source is inconsistent. */
import type { DatabaseCatalog } from '../../catalog/types.js';
import type { Json } from '../../util/decode.js';
import type { Metadata, SourceMetadata } from '../types.js';
import type { Inconsistency, SourceCatalog } from './types.js';

export interface ConnectedSource {
  metadata: SourceMetadata;
  introspection: DatabaseCatalog;
}

export function resolveSources(m: Metadata, catalogs: ReadonlyMap<string, SourceCatalog>): { connected: ConnectedSource[]; inconsistencies: Inconsistency[] } {
  const connected: ConnectedSource[] = [];
  const inconsistencies: Inconsistency[] = [];
  for (const s of m.sources) {
    const catalog = catalogs.get(s.name);
    if (catalog?.introspection) {
      connected.push({ metadata: s, introspection: catalog.introspection });
      continue;
    }
    inconsistencies.push({
      object: {
        type: 'source',
        name: `source ${s.name}`,
        definition: { name: s.name, kind: s.kind, configuration: s.configuration } as Json,
        reason: `Inconsistent object: ${catalog?.error ?? 'source is not connected'}`,
      },
      remove: (d) => {
        d.sources = d.sources.filter((x) => x.name !== s.name);
      },
    });
  }
  return { connected, inconsistencies };
}
