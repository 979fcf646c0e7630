/**
 * The front thread's connections to the sources plans run on: one PostgreSQL pool per
 * connected source, replaced when its connection settings change, closed when it goes.
 */
import type { SnapshotBus } from '../actors/snapshot-bus.js';
import { QueryRunner } from '../backends/pg/execute.js';
import type { SourceConnection, SourceConnections } from '../execute/connections.js';
import { log } from '../log.js';
import type { PublishedSnapshot } from '../protocol/snapshot.js';

export class SourcePools implements SourceConnections {
  private readonly runners = new Map<string, { key: string; runner: QueryRunner }>();

  constructor(snapshots: SnapshotBus) {
    snapshots.subscribe((s) => this.follow(s));
  }

  get(source: string): SourceConnection | undefined {
    return this.runners.get(source)?.runner;
  }

  private follow(s: PublishedSnapshot): void {
    const wanted = new Set<string>();
    for (const src of s.connected) {
      wanted.add(src.name);
      const key = JSON.stringify(src.configuration);
      if (this.runners.get(src.name)?.key === key) continue;
      void this.runners.get(src.name)?.runner.close().catch(() => {});
      try {
        this.runners.set(src.name, { key, runner: new QueryRunner(src.configuration) });
      } catch (e) {
        log.warn('cannot connect to source for queries', { source: src.name, error: e instanceof Error ? e.message : String(e) });
      }
    }
    for (const [name, r] of this.runners) {
      if (!wanted.has(name)) {
        void r.runner.close().catch(() => {});
        this.runners.delete(name);
      }
    }
  }

  async close(): Promise<void> {
    await Promise.all([...this.runners.values()].map((r) => r.runner.close().catch(() => {})));
  }
}
