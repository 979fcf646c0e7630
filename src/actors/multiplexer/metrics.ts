/**
 * A multiplexer actor's metrics, in its own registry (the front thread sums every actor's at a
 * scrape: `protocol/metrics.ts`): its pollers (multiplexed queries) and subscribers, read from
 * its live queries at a scrape, the time of each poll and of each batch on the database, and its
 * pools' connections, waits and connection times, and its spans sent and dropped. Names, labels and buckets are the well-known engine's.
 */
import { createHash } from 'node:crypto';
import { Gauge, Histogram, Registry } from 'prom-client';
import type { MetricsJson } from '../../protocol/metrics.js';
import type { LiveMeter, PollerState } from '../../live/live-queries.js';
import type { LiveQuery } from '../../protocol/live.js';
import type { MetricsSettings } from '../../protocol/metrics.js';
import { FINE_BUCKETS, PREFIX } from '../../observability/metrics/names.js';
import { PoolMetrics } from '../../observability/metrics/pools.js';
import { registerSpanCounts } from '../../observability/metrics/span-counts.js';

type Labels = Readonly<Record<string, string>>;

const KINDS = ['live-query', 'streaming'] as const;

export class MultiplexerMetrics implements LiveMeter {
  readonly registry = new Registry();
  private readonly totalTime: Histogram;
  private readonly dbTime: Histogram;
  /** This actor's pools: their connections, waits and connection times. */
  readonly pools: PoolMetrics;

  constructor(
    private readonly settings: MetricsSettings,
    pollers: () => Iterable<PollerState>,
    pools: () => Iterable<[string, number]>,
  ) {
    const registers = [this.registry];
    // Operation labels where the well-known engine puts them (`..._HIGH_CARDINALITY_LABELS`).
    const labelNames = settings.highCardinalityLabels ? ['subscription_kind', 'operation_name', 'parameterized_query_hash'] : ['subscription_kind'];
    this.totalTime = new Histogram({ name: `${PREFIX}subscription_total_time_seconds`, help: 'Time taken to complete one poll of a subscription poller', labelNames, buckets: FINE_BUCKETS, registers });
    this.dbTime = new Histogram({ name: `${PREFIX}subscription_db_execution_time_seconds`, help: "Time taken to run one batch of a subscription's multiplexed query on the database", labelNames, buckets: FINE_BUCKETS, registers });
    new Gauge({
      name: `${PREFIX}active_subscriptions`,
      help: 'Current number of active subscriptions',
      labelNames,
      registers,
      collect() {
        this.reset();
        for (const p of pollers()) if (p.subscribers > 0) this.inc(p.labels, p.subscribers);
      },
    });
    const byKind = (name: string, help: string, counted: (p: PollerState) => boolean) =>
      new Gauge({
        name: `${PREFIX}${name}`,
        help,
        labelNames: ['subscription_kind'],
        registers,
        collect() {
          for (const kind of KINDS) this.set({ subscription_kind: kind }, 0);
          for (const p of pollers()) if (counted(p)) this.inc({ subscription_kind: p.labels.subscription_kind! });
        },
      });
    byKind('active_subscription_pollers', 'Current number of active subscription pollers (multiplexed queries)', () => true);
    byKind('active_subscription_pollers_in_error_state', 'Current number of subscription pollers whose last poll failed', (p) => p.failing);
    this.pools = new PoolMetrics(this.registry, pools);
    // Its polls' spans (sent and dropped), summed with the other threads'.
    registerSpanCounts(this.registry);
  }

  /** The registry's metrics and the pools' times, as a scrape sums them. */
  async json(): Promise<MetricsJson> {
    return [...(await this.registry.getMetricsAsJSON()), ...this.pools.json()];
  }

  labels(live: LiveQuery, streaming: boolean): Labels {
    const subscription_kind = streaming ? 'streaming' : 'live-query';
    if (!this.settings.highCardinalityLabels) return { subscription_kind };
    // Requests that differ only in their variables and literals share a poller, and this hash: the
    // well-known engine's parameterized query hash plays the same part.
    return { subscription_kind, operation_name: live.operationName ?? '', parameterized_query_hash: createHash('sha1').update(live.key).digest('hex') };
  }

  polled(labels: Labels, seconds: number): void {
    this.totalTime.observe(labels, seconds);
  }

  batchRan(labels: Labels, seconds: number): void {
    this.dbTime.observe(labels, seconds);
  }
}
