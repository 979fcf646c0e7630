/**
 * The response cache hears of writes as live queries do (`live/change-capture.ts`: the sources'
 * statement-level triggers, PostgreSQL's NOTIFY), on the front thread: a source is listened to
 * from the first cached answer that reads it. A write committed on a captured table evicts the
 * entries that read it, whoever made it (`psql`, another engine, an event handler). When a feed
 * goes down or its captured tables change, writes may have been missed: every entry goes (not
 * when the feed first comes up: the entries stored while it connected are the only ones at risk,
 * for the moment it takes).
 * Tables without a trigger (views, other backends) are bounded by the TTL alone.
 */
import { ChangeCapture } from '../live/change-capture.js';
import type { Snapshots, SourcesView } from '../protocol/snapshot.js';
import { log } from '../log.js';
import type { ResponseCache } from './response-cache.js';

export class TableChanges {
  private readonly capture: ChangeCapture;
  /** Sources whose feed came up once. */
  private readonly up = new Set<string>();
  /** Sources asked for since the last snapshot: a request costs one lookup, a source that cannot be listened to one warning. */
  private readonly asked = new Set<string>();

  constructor(snapshots: Snapshots<SourcesView>, cache: () => ResponseCache) {
    this.capture = new ChangeCapture(snapshots);
    snapshots.subscribe(() => this.asked.clear());
    const failed = (e: unknown) => log.warn('the response cache could not evict after a write', { error: e instanceof Error ? e.message : String(e) });
    this.capture.listen({
      changed: (table) => void cache().evictTables([table]).catch(failed),
      resync: (source) => {
        if (!this.up.has(source)) return void this.up.add(source);
        void cache().clear({}).catch(failed);
      },
    });
  }

  watch(sources: readonly string[]): void {
    for (const s of sources) {
      if (this.asked.has(s)) continue;
      this.asked.add(s);
      this.capture.watch(s);
    }
  }

  close(): Promise<void> {
    return this.capture.close();
  }
}
