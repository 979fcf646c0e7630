/**
 * Resolution: the metadata checked against what the databases look like. Nothing
 * here fails; every object that does not fit is recorded as an inconsistency, with a
 * way to remove it (drop_inconsistent_metadata, cascades).
 */
import type { PgIntrospection } from '../backends/pg/catalog.js';
import type { Json } from '../util/decode.js';
import { sameTable, showTable } from './names.js';
import type { InconsistentObject, Metadata, SourceMetadata, TableMetadata } from './types.js';

export interface SourceCatalog {
  introspection: PgIntrospection | null;
  error: string | null;
}

export interface Inconsistency {
  object: InconsistentObject;
  remove(m: Metadata): void;
}

const tableObjectName = (t: TableMetadata, s: SourceMetadata) => `table ${showTable(t.table)} in source ${s.name}`;

function removeTable(source: string, t: TableMetadata) {
  return (m: Metadata) => {
    const s = m.sources.find((x) => x.name === source);
    if (s) s.tables = s.tables.filter((x) => !sameTable(x.table, t.table));
  };
}

function resolveSource(s: SourceMetadata, catalog: SourceCatalog | undefined): Inconsistency[] {
  if (!catalog || !catalog.introspection) {
    return [
      {
        object: {
          type: 'source',
          name: `source ${s.name}`,
          definition: { name: s.name, kind: s.kind, configuration: s.configuration } as Json,
          reason: `Inconsistent object: ${catalog?.error ?? 'source is not connected'}`,
        },
        remove: (m) => {
          m.sources = m.sources.filter((x) => x.name !== s.name);
        },
      },
    ];
  }
  const intro = catalog.introspection;
  const out: Inconsistency[] = [];
  for (const t of s.tables) {
    if (!intro.tables.some((pt) => sameTable(pt, t.table))) {
      out.push({
        object: {
          type: 'table',
          name: tableObjectName(t, s),
          definition: t.table as unknown as Json,
          reason: `Inconsistent object: no such table/view exists in source: ${JSON.stringify(showTable(t.table))}`,
        },
        remove: removeTable(s.name, t),
      });
    }
  }
  return out;
}

export function resolveInconsistencies(m: Metadata, catalogs: ReadonlyMap<string, SourceCatalog>): Inconsistency[] {
  return m.sources.flatMap((s) => resolveSource(s, catalogs.get(s.name)));
}

/** Identity of an inconsistency across resolutions: its type and name. */
export const inconsistencyKey = (o: InconsistentObject) => `${o.type}\u0000${o.name}`;
