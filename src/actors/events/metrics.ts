/**
 * The trigger-delivery actor's metrics, in its own registry (the front thread sums it with the
 * others at a scrape: `protocol/metrics.ts`): event triggers' fetches and deliveries, cron and
 * one-off events. Names, labels and buckets are the well-known engine's.
 */
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { EventRecord } from '../../backends/faces/events.js';
import { EVENT_BUCKETS, FETCH_BUCKETS, PREFIX, REQUEST_BUCKETS } from '../../observability/metrics/names.js';
import { registerSpanCounts } from '../../observability/metrics/span-counts.js';
import type { Attempt } from './delivery.js';

const status = (a: Attempt) => (a.outcome.kind === 'delivered' ? 'success' : 'failed');
/** A request was sent (a failed request transform sends none): what `..._invocation(s)_total` counts. */
const called = (a: Attempt) => typeof a.invocation.request === 'object' && a.invocation.request !== null && 'url' in a.invocation.request;

export class EventMetrics {
  readonly registry = new Registry();
  private readonly registers = [this.registry];
  private readonly triggerLabels = ['trigger_name', 'source_name'];
  private readonly invocations = new Counter({ name: `${PREFIX}event_invocations_total`, help: 'Number of HTTP requests made to webhooks to deliver events', labelNames: ['status', ...this.triggerLabels], registers: this.registers });
  private readonly processed = new Counter({ name: `${PREFIX}event_processed_total`, help: 'Total number of events processed', labelNames: ['status', ...this.triggerLabels], registers: this.registers });
  private readonly processing = new Histogram({
    name: `${PREFIX}event_processing_time_seconds`,
    help: 'Time from an event being created to its first delivery attempt ending',
    labelNames: this.triggerLabels,
    buckets: EVENT_BUCKETS,
    registers: this.registers,
  });
  private readonly queue = new Histogram({ name: `${PREFIX}event_queue_time_seconds`, help: 'Time an event waits between its fetch and its delivery', labelNames: this.triggerLabels, buckets: EVENT_BUCKETS, registers: this.registers });
  private readonly webhook = new Histogram({ name: `${PREFIX}event_webhook_processing_time_seconds`, help: 'Time of the webhook call of one delivery', labelNames: this.triggerLabels, buckets: REQUEST_BUCKETS, registers: this.registers });
  private readonly fetched = new Gauge({ name: `${PREFIX}events_fetched_per_batch`, help: 'Number of events fetched in the last batch', registers: this.registers });
  private readonly fetchTime = new Histogram({ name: `${PREFIX}event_fetch_time_per_batch_seconds`, help: 'Time taken to fetch a batch of events', buckets: FETCH_BUCKETS, registers: this.registers });
  private readonly scheduled = {
    cron: this.scheduledCounters('cron'),
    oneoff: this.scheduledCounters('oneoff'),
  };

  /** `inFlight`: the deliveries under way now (`event_trigger_http_workers`, read at a scrape). */
  constructor(inFlight: () => number) {
    // Deliveries are traced here (client spans of their webhook calls).
    registerSpanCounts(this.registry);
    new Gauge({
      name: `${PREFIX}event_trigger_http_workers`,
      help: 'Current number of event deliveries in flight',
      registers: this.registers,
      collect() {
        this.set(inFlight());
      },
    });
  }

  private scheduledCounters(kind: 'cron' | 'oneoff') {
    const labelNames = ['status'];
    return {
      invocations: new Counter({ name: `${PREFIX}${kind}_events_invocation_total`, help: `Total number of ${kind} events invoked`, labelNames, registers: this.registers }),
      processed: new Counter({ name: `${PREFIX}${kind}_events_processed_total`, help: `Total number of ${kind} events processed`, labelNames, registers: this.registers }),
    };
  }

  /** A batch of events was fetched, in `seconds`. */
  fetchedBatch(events: number, seconds: number): void {
    this.fetched.set(events);
    this.fetchTime.observe(seconds);
  }

  /**
   * One delivery attempt of an event trigger's event ended; `fetchedAt`, `startedAt`:
   * `performance.now()` when its batch came and when its delivery began. Its processing time is
   * measured from its creation on the first attempt only (a retry's due time is not fetched).
   */
  delivered(source: string, trigger: string, event: EventRecord, attempt: Attempt, fetchedAt: number, startedAt: number): void {
    const labels = { trigger_name: trigger, source_name: source };
    if (called(attempt)) this.invocations.inc({ status: status(attempt), ...labels });
    this.processed.inc({ status: status(attempt), ...labels });
    this.queue.observe(labels, (startedAt - fetchedAt) / 1000);
    this.webhook.observe(labels, attempt.invocation.durationMs / 1000);
    const created = Date.parse(event.createdAt);
    if (event.tries === 0 && !Number.isNaN(created)) this.processing.observe(labels, Math.max(0, Date.now() - created) / 1000);
  }

  /** One delivery attempt of a cron trigger's or a one-off scheduled event. */
  scheduledDelivered(kind: 'cron' | 'oneoff', attempt: Attempt): void {
    const counters = this.scheduled[kind];
    if (called(attempt)) counters.invocations.inc({ status: status(attempt) });
    counters.processed.inc({ status: status(attempt) });
  }
}
