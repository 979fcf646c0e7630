/**
 * The front thread's metrics: GraphQL requests (HTTP and WebSocket operations), HTTP and
 * WebSocket traffic, its pools' connections and the process defaults. The HTTP and GraphQL
 * layers call it through the small interfaces they declare (`RequestMeter`, `HttpMeter`,
 * `WsMeter`), and only when metrics are on: off, nothing here is loaded.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { PREFIX, REQUEST_BUCKETS } from './names.js';
import { registerPoolConnections } from './pools.js';

type OperationType = 'query' | 'mutation' | 'subscription' | 'unknown';

export class FrontMetrics {
  readonly registry = new Registry();
  private readonly execution = new Histogram({
    name: `${PREFIX}graphql_execution_time_seconds`,
    help: 'Execution time of successful GraphQL requests (excluding subscriptions)',
    labelNames: ['operation_type'],
    buckets: REQUEST_BUCKETS,
    registers: [this.registry],
  });
  private readonly requests = new Counter({
    name: `${PREFIX}graphql_requests_total`,
    help: 'Number of GraphQL requests received',
    labelNames: ['operation_type', 'response_status'],
    registers: [this.registry],
  });
  private readonly httpConnections = new Gauge({ name: `${PREFIX}http_connections`, help: 'Current number of HTTP requests being answered (WebSocket connections excluded)', registers: [this.registry] });
  private readonly httpIn = new Counter({ name: `${PREFIX}http_request_bytes_total`, help: 'Total size of HTTP request bodies received', registers: [this.registry] });
  private readonly httpOut = new Counter({ name: `${PREFIX}http_response_bytes_total`, help: 'Total size of HTTP response bodies sent', registers: [this.registry] });
  private readonly wsConnections = new Gauge({ name: `${PREFIX}websocket_connections`, help: 'Current number of active WebSocket connections', registers: [this.registry] });
  private readonly wsIn = new Counter({ name: `${PREFIX}websocket_messages_received_bytes_total`, help: 'Total size of WebSocket messages received', registers: [this.registry] });
  /** Counted on the socket, where the operation a message belongs to is not known: without the well-known engine's operation labels. */
  private readonly wsOut = new Counter({ name: `${PREFIX}websocket_messages_sent_bytes_total`, help: 'Total size of WebSocket messages sent', registers: [this.registry] });
  /** Children by label values, bound once: a request does no label hashing. */
  private readonly outcomes = new Map<string, { count: Counter; time: Histogram | null }>();

  constructor(pools: () => Iterable<[string, number]>) {
    // Standard process and Node.js metrics, under their usual names (dashboards expect them so).
    collectDefaultMetrics({ register: this.registry });
    registerPoolConnections(this.registry, pools);
  }

  /** One GraphQL operation answered; `startedAt` (`performance.now()`): when its request came, its authentication included. */
  request(operation: OperationType, ok: boolean, startedAt: number): void {
    const key = `${operation}:${ok}`;
    let o = this.outcomes.get(key);
    if (!o) {
      const timed = ok && (operation === 'query' || operation === 'mutation');
      o = { count: this.requests.labels(operation, ok ? 'success' : 'failed') as unknown as Counter, time: timed ? (this.execution.labels(operation) as unknown as Histogram) : null };
      this.outcomes.set(key, o);
    }
    o.count.inc();
    o.time?.observe((performance.now() - startedAt) / 1000);
  }

  // HttpMeter
  opened(): void {
    this.httpConnections.inc();
  }
  closed(responseBytes: number): void {
    this.httpConnections.dec();
    this.httpOut.inc(responseBytes);
  }
  received(bytes: number): void {
    this.httpIn.inc(bytes);
  }

  readonly websocket = {
    opened: (): void => this.wsConnections.inc(),
    closed: (): void => this.wsConnections.dec(),
    received: (bytes: number): void => this.wsIn.inc(bytes),
    sent: (bytes: number): void => this.wsOut.inc(bytes),
  };
}
