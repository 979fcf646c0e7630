/**
 * A multiplexer actor's change capture: per source whose live queries run, a
 * change feed from its backend (`Runtime.listenChanges`; PostgreSQL: statement-level triggers
 * and LISTEN), which says which tracked tables are captured and when one was written. The
 * refetch schedule (`refetch-schedule.ts`) asks whether every table a query reads is captured
 * (`covers`): only then does the query stop being polled. A feed is started by the first live
 * query on its source, read again when a snapshot changes the source's tables and when the
 * metadata actor's trigger sync (after it answers) says the captured tables changed, and
 * replaced when the source's connection settings change.
 */
import type { Snapshots } from '../protocol/snapshot.js';
import type { ChangeFeed } from '../backends/faces/runtime.js';
import { runtimeFor } from '../backends/registry.js';
import { log } from '../log.js';
import type { SourcesView } from '../protocol/snapshot.js';
import { tableKey } from '../catalog/types.js';
import { canonicalJson } from '../util/canonical-json.js';

export interface ChangeEvents {
  /** A write to the table (`source \0 schema.name`) was committed. */
  changed(table: string): void;
  /** What the source's feed captures changed, or it went down: its queries may have missed writes. */
  resync(source: string): void;
}

interface Feed {
  key: string;
  feed: ChangeFeed;
  /** Captured table keys, and the keys of names that are only types (reading no rows); null while down or not yet read. */
  captured: Set<string> | null;
}

/** The source of a table key (`tableKey`). */
export const sourceOf = (table: string) => table.slice(0, table.indexOf('\u0000'));

export class ChangeCapture {
  private readonly feeds = new Map<string, Feed>();
  private connected: SourcesView['connected'] = [];
  private events: ChangeEvents | null = null;

  constructor(snapshots: Snapshots<SourcesView>) {
    snapshots.subscribe((s) => this.follow(s));
  }

  listen(events: ChangeEvents): void {
    this.events = events;
  }

  /** Starts the source's feed, if its backend has one and it is not running. */
  watch(source: string): void {
    if (this.feeds.has(source)) return;
    const src = this.connected.find((s) => s.name === source);
    const backend = src && runtimeFor(src.kind);
    if (!src || !backend?.listenChanges) return;
    // Its handlers are called only once it is connected, after `entry` is set.
    let entry: Feed | undefined;
    const current = () => entry !== undefined && this.feeds.get(source) === entry;
    try {
      const feed = backend.listenChanges(src.configuration, {
        captured: (tables, types) => {
          if (!current()) return;
          entry!.captured = new Set([...tables, ...types].map((t) => tableKey(source, t)));
          this.events?.resync(source);
        },
        changed: (t) => current() && this.events?.changed(tableKey(source, t)),
        lost: () => {
          if (!current()) return;
          entry!.captured = null;
          this.events?.resync(source);
        },
      });
      entry = { key: canonicalJson([src.kind, src.configuration]), feed, captured: null };
      this.feeds.set(source, entry);
    } catch (e) {
      log.warn('change capture cannot listen to source; its live queries are polled', { source, error: e instanceof Error ? e.message : String(e) });
    }
  }

  /** Whether a write to any of `tables` (table keys; none: not known) is reported. */
  covers(tables: readonly string[]): boolean {
    return tables.length > 0 && tables.every((t) => this.feeds.get(sourceOf(t))?.captured?.has(t) === true);
  }

  private follow(s: SourcesView): void {
    this.connected = s.connected;
    for (const [name, entry] of this.feeds) {
      const src = s.connected.find((c) => c.name === name);
      if (!src || canonicalJson([src.kind, src.configuration]) !== entry.key) {
        this.feeds.delete(name);
        void entry.feed.close();
        this.events?.resync(name);
        // Still used: listened to with the new settings.
        if (src) this.watch(name);
      } else if (s.changes.everything || s.changes.sources.includes(name) || s.changes.tables.some((t) => sourceOf(t.key) === name)) {
        entry.feed.refresh();
      }
    }
  }

  async close(): Promise<void> {
    const feeds = [...this.feeds.values()];
    this.feeds.clear();
    await Promise.all(feeds.map((f) => f.feed.close()));
  }
}
