/** Stage 2: each tracked table exists in its source's catalog, else it is inconsistent (with everything on it). */
import { qualifiedKey } from '../../catalog/types.js';
import type { Json } from '../../util/decode.js';
import { ApiError } from '../../errors/admin.js';
import { tableConfiguration } from '../customization.js';
import { sameTable, showTable } from '../names.js';
import type { TableMetadata } from '../types.js';
import type { ConnectedSource } from './sources.js';
import { NO_PERMISSIONS, type Inconsistency, type ResolvedSource, type ResolvedTable } from './types.js';

/** A stored configuration no command would store (a name that is not a GraphQL name, from an older store row). */
export function configurationProblem(entry: TableMetadata): string | null {
  if (entry.configuration === undefined) return null;
  try {
    tableConfiguration(entry.configuration, '$.configuration', null);
    return null;
  } catch (e) {
    return `in table ${JSON.stringify(showTable(entry.table))}: ${e instanceof ApiError ? `${e.path}: ` : ''}${e instanceof Error ? e.message : String(e)}`;
  }
}

export function resolveTables({ metadata: s, introspection }: ConnectedSource): { source: ResolvedSource; inconsistencies: Inconsistency[] } {
  const byKey = new Map(introspection.tables.map((t) => [qualifiedKey(t), t]));
  const tables = new Map<string, ResolvedTable>();
  const inconsistencies: Inconsistency[] = [];
  for (const entry of s.tables) {
    const key = qualifiedKey(entry.table);
    const table = byKey.get(key);
    const problem = table ? configurationProblem(entry) : `no such table/view exists in source: ${JSON.stringify(showTable(entry.table))}`;
    if (!table || problem) {
      inconsistencies.push({
        object: {
          type: 'table',
          name: `table ${showTable(entry.table)} in source ${s.name}`,
          definition: entry.table as unknown as Json,
          reason: `Inconsistent object: ${problem}`,
        },
        remove: (d) => {
          const src = d.sources.find((x) => x.name === s.name);
          if (src) src.tables = src.tables.filter((x) => !sameTable(x.table, entry.table));
        },
      });
      continue;
    }
    tables.set(key, {
      name: entry.table,
      catalog: table,
      entry,
      columns: new Map(table.columns.map((c) => [c.name, c])),
      relationships: new Map(),
      computedFields: new Map(),
      permissions: NO_PERMISSIONS,
    });
  }
  return { source: { name: s.name, metadata: s, introspection, tables }, inconsistencies };
}
