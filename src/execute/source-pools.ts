/**
 * Connections to the sources plans run on (the front thread's, a multiplexer actor's): one pool per connected
 * source (from its kind's backend), replaced when its connection settings change, closed
 * when it goes.
 */
import { canonicalJson } from '../util/canonical-json.js';
import type { Snapshots } from '../protocol/snapshot.js';
import { runtimeFor } from '../backends/registry.js';
import type { ConnectedSource, SourceConnections } from './connections.js';
import { logger } from '../log.js';
import type { SourcesView } from '../protocol/snapshot.js';
import type { PoolLimits, PoolMeter } from '../backends/faces/runtime.js';
import { queryTagsOf } from './query-tags.js';

const log = logger('health-check-log');

/** Each source's pool meter, when metrics are on (`observability/metrics/pools.ts`). */
export type PoolMeters = (source: string) => PoolMeter;

export class SourcePools implements SourceConnections {
  private readonly runners = new Map<string, { key: string; source: ConnectedSource }>();

  /**
   * `limits`: the pools' settings instead of each source's (the multiplexer actors' pools);
   * `meters`: absent when metrics are off (nothing is measured).
   */
  constructor(
    snapshots: Snapshots<SourcesView>,
    private readonly limits?: PoolLimits,
    private readonly meters?: PoolMeters,
  ) {
    snapshots.subscribe((s) => this.follow(s));
  }

  get(source: string): ConnectedSource | undefined {
    return this.runners.get(source)?.source;
  }

  /** Each source's open connections in this thread's pools (metrics, at a scrape). */
  *openConnections(): Iterable<[string, number]> {
    for (const [name, r] of this.runners) {
      const open = r.source.connection.openConnections?.();
      if (open !== undefined) yield [name, open];
    }
  }

  private follow(s: SourcesView): void {
    const wanted = new Set<string>();
    for (const src of s.connected) {
      wanted.add(src.name);
      const key = canonicalJson([src.kind, src.configuration]);
      if (this.runners.get(src.name)?.key === key) continue;
      void this.runners.get(src.name)?.source.connection.close().catch(() => {});
      // Never left holding the closed pool, should the new one fail.
      this.runners.delete(src.name);
      try {
        const backend = runtimeFor(src.kind);
        if (!backend) throw new Error(`backend kind "${src.kind}" is not supported`);
        this.runners.set(src.name, { key, source: { backend, connection: backend.connect(src.configuration, this.limits, this.meters?.(src.name)) } });
      } catch (e) {
        log.warn('cannot connect to source for queries', { source: src.name, error: e instanceof Error ? e.message : String(e) });
      }
    }
    const capturing = new Set((s.eventTriggers ?? []).map((t) => t.source));
    for (const [name, r] of this.runners) {
      if (!wanted.has(name)) {
        void r.source.connection.close().catch(() => {});
        this.runners.delete(name);
      } else r.source.capturesEvents = capturing.has(name);
    }
    for (const src of s.connected) {
      const r = this.runners.get(src.name);
      if (r) r.source.queryTags = queryTagsOf(src.queryTags);
    }
  }

  async close(): Promise<void> {
    await Promise.all([...this.runners.values()].map((r) => r.source.connection.close().catch(() => {})));
  }
}
