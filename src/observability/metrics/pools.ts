/**
 * The metrics of a thread's query pools (the front thread's, each multiplexer actor's), summed
 * across threads at a scrape:
 * - `service_postgres_connections{source_name, role}`: the connections each pool holds open,
 *   read at the scrape (nothing is counted per query);
 * - `service_postgres_pool_wait_time{source_name, role}`: the time a statement waited for a
 *   connection from its source's pool;
 * - `service_postgres_connection_init_time{source_name, role}`: the time a new connection took
 *   to be established and set up.
 * Names, labels and buckets as the well-known engine's, without its `conn_info` label (a URL
 * or a variable's name, which says no more than the source's name here). Replicas are not pooled
 * apart: every pool is `primary`. The two times are plain numbers per source (`PoolMeter`, taken
 * once per pool), observed only when metrics are on: off, the pools are given no meter.
 */
import { Gauge, type Registry } from 'prom-client';
import type { MetricJson } from '../../protocol/metrics.js';
import { FINE_BUCKETS, PREFIX } from './names.js';
import { PlainHistogram, type HistogramSeries } from './plain-histogram.js';

/** A source's pool times in this thread (the backends' `PoolMeter`). */
export interface SourcePoolMeter {
  waited(seconds: number): void;
  connected(seconds: number): void;
}

export class PoolMetrics {
  private readonly wait = new PlainHistogram(`${PREFIX}postgres_pool_wait_time`, 'Time taken to acquire a connection from the pool', FINE_BUCKETS);
  private readonly init = new PlainHistogram(`${PREFIX}postgres_connection_init_time`, 'Time taken to establish and initialize a PostgreSQL connection', FINE_BUCKETS);

  /** `pools`: each source's open connections in this thread. */
  constructor(registry: Registry, pools: () => Iterable<[source: string, open: number]>) {
    new Gauge({
      name: `${PREFIX}postgres_connections`,
      help: 'Current number of open connections to each source (all pools of all threads)',
      labelNames: ['source_name', 'role'],
      registers: [registry],
      collect() {
        this.reset();
        for (const [source, open] of pools()) this.inc({ source_name: source, role: 'primary' }, open);
      },
    });
  }

  /** The meter of `source`'s pool (the same series when its pool is replaced: the counts go on). */
  meter(source: string): SourcePoolMeter {
    const labels = { source_name: source, role: 'primary' };
    const wait: HistogramSeries = this.wait.series(labels);
    const init: HistogramSeries = this.init.series(labels);
    return { waited: (s) => wait.observe(s), connected: (s) => init.observe(s) };
  }

  json(): MetricJson[] {
    return [this.wait.json(), this.init.json()];
  }
}
