/** Finding sources and tables in a metadata document, with the errors the API gives when they are missing. */
import type { QualifiedName } from '../catalog/types.js';
import { atArgument, notExists } from '../errors/admin.js';
import { sameTable, showTable } from './names.js';
import { current } from '../util/draft.js';
import type { Metadata, SourceMetadata, TableMetadata } from './types.js';

export function findSource(m: Metadata, name: string, path = '$.args'): SourceMetadata {
  const s = m.sources.find((x) => x.name === name);
  if (!s) throw notExists(`source with name ${JSON.stringify(name)} does not exist`, path);
  return s;
}

export function trackedTable(source: SourceMetadata, table: QualifiedName): TableMetadata | undefined {
  const i = current(source.tables).findIndex((t) => sameTable(t.table, table));
  return i < 0 ? undefined : source.tables[i];
}

export function findTable(source: SourceMetadata, table: QualifiedName, path = '$.args.table'): TableMetadata {
  const t = trackedTable(source, table);
  if (!t) throw atArgument(notExists(`table ${JSON.stringify(showTable(table))} does not exist in source: ${source.name}`, path));
  return t;
}
