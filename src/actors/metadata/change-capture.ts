/**
 * Keeps each source's change capture (the triggers live queries listen to)
 * on exactly its tracked tables: run after every metadata version is taken, once the request
 * that made it is answered (in turn with the actor's requests); its notice tells the front
 * thread's listeners to read the captured tables again, and until then the new tables are
 * polled. Outside the request's transaction on purpose: a table that cannot be captured (no
 * privilege) is polled and logged, never an error for the metadata call. A source whose
 * tables and catalog are what was last synced costs no statement.
 */
import type { AdminConnection } from '../../backends/faces/admin.js';
import type { SourceCatalog } from '../../metadata/resolve.js';
import type { Metadata, TableMetadata } from '../../metadata/types.js';
import { samePicks } from '../../util/same-picks.js';

export class ChangeCaptureSync {
  /** Per source, what was last synced: its table entries, their tables (JSON) and the catalog they were checked against. */
  private readonly synced = new Map<string, { entries: readonly TableMetadata[]; tables: string; catalog: SourceCatalog }>();

  constructor(private readonly enabled: boolean) {}

  async sync(m: Metadata, connection: (source: string) => AdminConnection | null, catalogs: Map<string, SourceCatalog>): Promise<void> {
    if (!this.enabled) return;
    for (const name of this.synced.keys()) if (!m.sources.some((s) => s.name === name)) this.synced.delete(name);
    for (const s of m.sources) {
      const admin = connection(s.name);
      const catalog = catalogs.get(s.name);
      if (!admin?.syncChangeCapture || !catalog?.introspection) continue;
      const last = this.synced.get(s.name);
      // The list is kept: the next change is compared with it where a draft wrote (util/same-picks.ts).
      if (last?.catalog === catalog && samePicks(last.entries, s.tables, (t) => t.table)) {
        last.entries = s.tables;
        continue;
      }
      const tables = s.tables.map((t) => t.table);
      const key = JSON.stringify(tables);
      if (last?.catalog !== catalog || last.tables !== key) await admin.syncChangeCapture(s.name, tables, everyTrackedTable(m));
      this.synced.set(s.name, { entries: s.tables, tables: key, catalog });
    }
  }

  /** A source leaves the metadata: its tables lose their triggers (those another source of `m` tracks excepted). */
  async removed(source: string, admin: AdminConnection, m: Metadata): Promise<void> {
    this.synced.delete(source);
    if (this.enabled) await admin.syncChangeCapture?.(source, [], everyTrackedTable(m));
  }
}

function everyTrackedTable(m: Metadata) {
  return m.sources.flatMap((s) => s.tables.map((t) => t.table));
}
