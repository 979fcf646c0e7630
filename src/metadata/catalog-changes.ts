/**
 * Carries DDL done through run_sql into the metadata: a renamed table or column is
 * renamed in the metadata too (tables are followed by oid, columns by position), and a
 * dropped table is untracked. Whatever else breaks shows up as an inconsistency.
 */
import type { PgIntrospection, PgTable } from '../backends/pg/catalog.js';
import { isObject, type JsonObject } from '../util/decode.js';
import { sameTable } from './names.js';
import type { Metadata, TableMetadata } from './types.js';

function renameColumns(entry: TableMetadata, before: PgTable, after: PgTable): void {
  const config = entry.configuration;
  const columnConfig = config && isObject(config.column_config) ? config.column_config : null;
  if (!columnConfig) return;
  const renamed: JsonObject = {};
  for (const [col, cfg] of Object.entries(columnConfig)) {
    const old = before.columns.find((c) => c.name === col);
    const now = old && after.columns.find((c) => c.position === old.position);
    renamed[now ? now.name : col] = cfg;
  }
  config!.column_config = renamed;
}

export function applyCatalogChanges(m: Metadata, source: string, before: PgIntrospection, after: PgIntrospection): void {
  const s = m.sources.find((x) => x.name === source);
  if (!s) return;
  const byOid = new Map(after.tables.map((t) => [t.oid, t]));
  s.tables = s.tables.filter((entry) => {
    const old = before.tables.find((t) => sameTable(t, entry.table));
    if (!old) return true; // was already missing: stays inconsistent
    const now = byOid.get(old.oid);
    if (!now) return false; // dropped
    if (now.schema !== old.schema || now.name !== old.name) entry.table = { schema: now.schema, name: now.name };
    renameColumns(entry, old, now);
    return true;
  });
}
