/**
 * The front thread's metrics: GraphQL requests (HTTP and WebSocket operations), HTTP and
 * WebSocket traffic, its pools' connections and the process defaults. The HTTP and GraphQL
 * layers call it through the small interfaces they declare (`RequestMeter`, `HttpMeter`,
 * `WsMeter`), and only when metrics are on (off, main.ts does not load it).
 *
 * A request only adds to plain numbers: prom-client's own `inc`/`observe` hash their labels on
 * every call, 4 µs for a labelled histogram's observation measured on this machine under load,
 * a tenth of a cached query's whole server time (bench/metrics-overhead.mjs). The numbers
 * become metrics at a scrape: counters and gauges through their `collect`, the execution-time
 * histograms written as the registry's JSON (`plain-histogram.ts`).
 */
import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import type { MetricsJson } from '../../protocol/metrics.js';
import { PREFIX, REQUEST_BUCKETS } from './names.js';
import { PlainHistogram, type HistogramSeries } from './plain-histogram.js';
import { PoolMetrics } from './pools.js';
import { registerSpanCounts } from './span-counts.js';

type OperationType = 'query' | 'mutation' | 'subscription' | 'unknown';

const OPERATIONS: readonly OperationType[] = ['query', 'mutation', 'subscription', 'unknown'];

export class FrontMetrics {
  readonly registry = new Registry();
  /** Requests by operation and outcome: index `2 * operation + (ok ? 0 : 1)`. */
  private readonly requestCounts = new Float64Array(OPERATIONS.length * 2);
  private readonly execution = new PlainHistogram(`${PREFIX}graphql_execution_time_seconds`, 'Execution time of successful GraphQL requests (excluding subscriptions)', REQUEST_BUCKETS);
  private readonly executions: Record<'query' | 'mutation', HistogramSeries> = { query: this.execution.series({ operation_type: 'query' }), mutation: this.execution.series({ operation_type: 'mutation' }) };
  /** This thread's query pools (`SourcePools`): their connections, waits and connection times. */
  readonly pools: PoolMetrics;
  private http = { open: 0, in: 0, out: 0 };
  private ws = { open: 0, in: 0, out: 0 };
  /** `@cached` queries' lookups by outcome (`CacheStatus`). */
  private readonly cacheCounts = new Map<string, number>();

  constructor(pools: () => Iterable<[string, number]>) {
    const registers = [this.registry];
    // Standard process and Node.js metrics, under their usual names (dashboards expect them so).
    collectDefaultMetrics({ register: this.registry });
    this.pools = new PoolMetrics(this.registry, pools);
    registerSpanCounts(this.registry);
    const counts = this.requestCounts;
    new Counter({
      name: `${PREFIX}graphql_requests_total`,
      help: 'Number of GraphQL requests received',
      labelNames: ['operation_type', 'response_status'],
      registers,
      collect() {
        this.reset();
        OPERATIONS.forEach((operation_type, i) => {
          if (counts[2 * i]! > 0) this.inc({ operation_type, response_status: 'success' }, counts[2 * i]);
          if (counts[2 * i + 1]! > 0) this.inc({ operation_type, response_status: 'failed' }, counts[2 * i + 1]);
        });
      },
    });
    const gauge = (name: string, help: string, read: () => number) =>
      new Gauge({
        name: `${PREFIX}${name}`,
        help,
        registers,
        collect() {
          this.set(read());
        },
      });
    const counter = (name: string, help: string, read: () => number) =>
      new Counter({
        name: `${PREFIX}${name}`,
        help,
        registers,
        collect() {
          this.reset();
          this.inc(read());
        },
      });
    const cacheCounts = this.cacheCounts;
    // The well-known engine's `hasura_cache_request_count`.
    new Counter({
      name: `${PREFIX}cache_request_count`,
      help: 'Number of @cached query lookups, by status: hit, miss, unavailable (the store could not be reached)',
      labelNames: ['status'],
      registers,
      collect() {
        this.reset();
        for (const [status, n] of cacheCounts) this.inc({ status }, n);
      },
    });
    gauge('http_connections', 'Current number of HTTP requests being answered (WebSocket connections excluded)', () => this.http.open);
    counter('http_request_bytes_total', 'Total size of HTTP request bodies received', () => this.http.in);
    counter('http_response_bytes_total', 'Total size of HTTP response bodies sent', () => this.http.out);
    gauge('websocket_connections', 'Current number of active WebSocket connections', () => this.ws.open);
    counter('websocket_messages_received_bytes_total', 'Total size of WebSocket messages received', () => this.ws.in);
    // Counted on the socket, where the operation a message belongs to is not known: without the well-known engine's operation labels.
    counter('websocket_messages_sent_bytes_total', 'Total size of WebSocket messages sent', () => this.ws.out);
  }

  /** One GraphQL operation answered; `startedAt` (`performance.now()`): when its request came, its authentication included. */
  request(operation: OperationType, ok: boolean, startedAt: number): void {
    this.requestCounts[2 * OPERATIONS.indexOf(operation) + (ok ? 0 : 1)]!++;
    if (!ok || (operation !== 'query' && operation !== 'mutation')) return;
    this.executions[operation].observe((performance.now() - startedAt) / 1000);
  }

  /** One `@cached` query looked up (`CacheMeter`). */
  cacheRequest(status: string): void {
    this.cacheCounts.set(status, (this.cacheCounts.get(status) ?? 0) + 1);
  }

  /** The registry's metrics and the histograms kept as plain numbers, as a scrape sums them (`protocol/metrics.ts`). */
  async json(): Promise<MetricsJson> {
    return [...(await this.registry.getMetricsAsJSON()), this.execution.json(), ...this.pools.json()];
  }

  // HttpMeter
  opened(): void {
    this.http.open++;
  }
  closed(responseBytes: number): void {
    this.http.open--;
    this.http.out += responseBytes;
  }
  received(bytes: number): void {
    this.http.in += bytes;
  }

  readonly websocket = {
    opened: (): void => void this.ws.open++,
    closed: (): void => void this.ws.open--,
    received: (bytes: number): void => void (this.ws.in += bytes),
    sent: (bytes: number): void => void (this.ws.out += bytes),
  };
}
