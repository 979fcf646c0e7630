/**
 * The trigger-delivery actor's loop: per source with event triggers, lease
 * due events in batches (`EventStore.fetch`: `FOR UPDATE SKIP LOCKED`, so instances share the
 * work), deliver each (`delivery.ts`), record the attempts and move the events on in batches
 * (`finish-queue.ts`). At most `httpPoolSize` deliveries are in flight; a full batch is followed
 * by another fetch at once, and while the pool is full the next fetch comes as soon as half a
 * batch has room (the pipeline stays full without fetches of one event), else the next poll
 * comes after `fetchIntervalMs` or sooner when a captured event NOTIFYs. With
 * `maxConcurrentPerTrigger`, the store leases no more of a trigger's events than the cap less
 * those under a live lease anywhere (a cluster-wide cap).
 * Delivered events past the retention are removed hourly, and each trigger's `cleanup_config`
 * runs on its schedule (`cleaner.ts`). Shutdown fetches nothing more, lets the deliveries in
 * flight end until the engine's shutdown deadline, cuts the others, records what ended and gives
 * back the leases it still holds (`in-flight.ts`).
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { EventRecord, EventStore } from '../../backends/faces/events.js';
import { eventsFor } from '../../backends/registry.js';
import type { EventTriggerView } from '../../metadata/event-triggers.js';
import { logger } from '../../log.js';
import { HttpClient } from '../../outgoing/http-client.js';
import { TlsAllowlist } from '../../outgoing/tls-allowlist.js';
import type { EventsBootData } from '../../protocol/messages.js';
import type { EventsView } from '../../protocol/snapshot.js';
import { canonicalJson } from '../../util/canonical-json.js';
import { LogCleaner } from './cleaner.js';
import { deliver, eventBody } from './delivery.js';
import { FinishQueue } from './finish-queue.js';
import { ScheduledDelivery } from './scheduled.js';
import { AsyncActions } from './async-actions.js';
import { coalesced } from '../../util/coalesced.js';
import type { EventMetrics } from './metrics.js';
import { InFlight } from './in-flight.js';

const log = logger('event-trigger');

/** A lease outlives the call's timeout by this much (recording the attempt), then another instance may take the event. */
const LEASE_MARGIN_SECONDS = 10;
const RETENTION_EVERY_MS = 3_600_000;
const RETENTION_BATCH = 10_000;
/** Response bodies past this are cut (the recorded body is shorter still). */
const MAX_ANSWER_BYTES = 16 * 1024 * 1024;
/** How long a finished delivery waits for others to be recorded with it. */
const FINISH_DELAY_MS = 20;

interface Source {
  name: string;
  configKey: string;
  store: EventStore;
  listener: { close(): Promise<void> };
  triggers: Map<string, EventTriggerView>;
  finishes: FinishQueue;
  /** The log exists (checked until it does). */
  ready: boolean;
  /** The last fetch failed (logged once). */
  failing: boolean;
}

export class EventProcessor {
  /** This actor's name on its leases (`locked_by`). */
  readonly instance = `${hostname()}:${process.pid}:${randomUUID()}`;
  private readonly sources = new Map<string, Source>();
  private readonly tls = new TlsAllowlist();
  private readonly client: HttpClient;
  private readonly inFlight = new InFlight();
  /** Fetches under way (a stop waits for them: what they lease is then in flight). */
  private readonly polls = new InFlight();
  private readonly cleaner = new LogCleaner();
  private timer: NodeJS.Timeout | null = null;
  private retention: NodeJS.Timeout | null = null;
  private stopped = false;
  private started = false;
  /** Deliveries filled the pool while events were due: fetch again once half a batch has room. */
  private full = false;
  readonly counts = { delivered: 0, failed: 0 };

  /** Cron triggers and one-off events (`scheduled.ts`), on the same HTTP client and polls. */
  private readonly scheduled: ScheduledDelivery;
  /** Asynchronous actions' calls (`async-actions.ts`), on the same HTTP client. */
  readonly asyncActions: AsyncActions;

  /** `metrics`: what `/v1/metrics` reads of this actor (null: metrics off). */
  constructor(
    private readonly options: EventsBootData,
    readonly metrics: EventMetrics | null = null,
  ) {
    this.client = new HttpClient(60_000, MAX_ANSWER_BYTES, this.tls, options.httpPoolSize);
    this.scheduled = new ScheduledDelivery(options.catalogUrl, this.client, { batchSize: options.fetchBatchSize, poolSize: options.httpPoolSize }, this.instance, this.metrics);
    this.asyncActions = new AsyncActions(options.catalogUrl, this.client, options.asyncActions, this.instance);
  }

  /**
   * Starts the polls, on the first snapshot: the scheduled events and the action log live in the
   * metadata store, whose tables exist once a metadata actor has booted (this engine's, or another
   * engine's holding the install lock meanwhile).
   */
  private start(): void {
    this.started = true;
    this.asyncActions.start();
    if (this.options.fetchIntervalMs === 0) return;
    this.scheduled.start();
    this.timer = setInterval(() => {
      this.wake();
      this.scheduled.poll();
    }, this.options.fetchIntervalMs);
    if (this.options.retentionHours > 0) {
      this.retention = setInterval(() => void this.removeOld(), RETENTION_EVERY_MS);
      this.retention.unref();
    }
  }

  /** A new snapshot: sources connected or dropped, triggers as they are now. */
  update(view: EventsView): void {
    // (Never after `stop`: a view told while the actor shuts down starts no poll.)
    if (!this.started && !this.stopped) this.start();
    this.tls.update(view.tlsAllowlist);
    this.asyncActions.update(view.asyncActions);
    if (this.options.fetchIntervalMs === 0) return;
    this.scheduled.update(view.cronTriggers);
    const bySource = new Map<string, Map<string, EventTriggerView>>();
    for (const t of view.eventTriggers) {
      const triggers = bySource.get(t.source) ?? new Map<string, EventTriggerView>();
      triggers.set(t.name, t);
      bySource.set(t.source, triggers);
    }
    for (const [name, s] of this.sources) {
      const connected = view.connected.find((c) => c.name === name);
      if (!connected || !bySource.has(name) || canonicalJson(connected.configuration) !== s.configKey) {
        this.sources.delete(name);
        void close(s);
      }
    }
    for (const [name, triggers] of bySource) {
      const connected = view.connected.find((c) => c.name === name);
      const backend = connected && eventsFor(connected.kind);
      if (!connected || !backend?.connectEvents) continue;
      const existing = this.sources.get(name);
      if (existing) {
        existing.triggers = triggers;
        continue;
      }
      const store = backend.connectEvents(connected.configuration, Math.max(2, Math.min(this.options.httpPoolSize, 10)));
      const finishes = new FinishQueue(store, this.instance, this.options.fetchBatchSize, FINISH_DELAY_MS, (batch) => {
        // A retry due at once (Retry-After: 0) is fetched on the next turn; under a cap, recorded
        // deliveries make room for the trigger's next events.
        if (this.options.maxConcurrentPerTrigger > 0 || batch.some((a) => a.outcome.kind === 'retry' && a.outcome.afterSeconds === 0)) this.wake();
      });
      const source: Source = { name, configKey: canonicalJson(connected.configuration), store, listener: store.listen(() => this.wake()), triggers, finishes, ready: false, failing: false };
      this.sources.set(name, source);
      if (this.options.retentionHours > 0) void this.removeOld(source);
    }
    this.cleaner.update(view.eventTriggers, (name) => this.sources.get(name)?.store);
    this.wake();
  }

  /** Fetch now (coalesced with a fetch under way). */
  wake(): void {
    if (!this.stopped) this.fetchSoon();
  }

  private readonly fetchSoon = coalesced(() => this.polls.track(() => this.fetchAll()));

  private async fetchAll(): Promise<void> {
    for (const [name, source] of this.sources) {
      try {
        await this.fetchSource(source);
        source.failing = false;
      } catch (e) {
        // Once per outage, not every poll.
        if (!source.failing) log.warn('events cannot be fetched from a source; retrying every poll', { source: name, error: e instanceof Error ? e.message : String(e) });
        source.failing = true;
      }
    }
  }

  private async fetchSource(source: Source): Promise<void> {
    if (!source.ready && !(source.ready = await source.store.ready())) return;
    const leases = [...source.triggers.values()].map((t) => ({ name: t.name, leaseSeconds: t.retry.timeoutSec + LEASE_MARGIN_SECONDS, maxConcurrent: this.options.maxConcurrentPerTrigger }));
    for (;;) {
      const room = this.room();
      if (room < this.lowWater() || this.stopped) {
        // Full: a delivery that ends leaving half a batch of room fetches again.
        this.full = true;
        return;
      }
      const fetchStarted = this.metrics ? performance.now() : 0;
      const events = await source.store.fetch(leases, room, this.instance);
      const fetchedAt = this.metrics ? performance.now() : 0;
      this.metrics?.fetchedBatch(events.length, (fetchedAt - fetchStarted) / 1000);
      for (const event of events) {
        const trigger = source.triggers.get(event.trigger);
        if (!trigger) continue;
        void this.inFlight.track(
          () => this.deliverOne(source, event, trigger, fetchedAt),
          () => {
            if (this.full && this.room() >= this.lowWater()) {
              this.full = false;
              this.wake();
            }
          },
        );
      }
      if (events.length < room) return;
    }
  }

  /** How many more events may be fetched now. */
  private room(): number {
    return Math.min(this.options.fetchBatchSize, this.options.httpPoolSize - this.inFlight.size);
  }

  /** A fetch waits for this much room: half a batch. */
  private lowWater(): number {
    return Math.max(1, Math.ceil(Math.min(this.options.fetchBatchSize, this.options.httpPoolSize) / 2));
  }

  private async deliverOne(source: Source, event: EventRecord, trigger: EventTriggerView, fetchedAt: number): Promise<void> {
    try {
      const startedAt = this.metrics ? performance.now() : 0;
      const body = eventBody(event, trigger);
      const session = (body.event as { session_variables: Record<string, string> | null }).session_variables ?? undefined;
      const attempt = await deliver(this.client, trigger, body, event.tries, `event trigger ${trigger.name}`, session);
      if (this.inFlight.cut) return;
      this.metrics?.delivered(source.name, trigger.name, event, attempt, fetchedAt, startedAt);
      if (attempt.outcome.kind === 'delivered') this.counts.delivered++;
      else this.counts.failed++;
      source.finishes.add({ event, ...attempt });
    } catch (e) {
      // The lease runs out and the event is fetched again.
      log.warn('an event cannot be delivered', { trigger: trigger.name, event: event.id, error: e instanceof Error ? e.message : String(e) });
    }
  }

  /** Delivered events past the retention go, a batch at a time. */
  private async removeOld(only?: Source): Promise<void> {
    for (const source of only ? [only] : this.sources.values()) {
      try {
        if (!(await source.store.ready())) continue;
        while ((await source.store.removeDelivered(this.options.retentionHours, RETENTION_BATCH)) === RETENTION_BATCH && !this.stopped);
      } catch (e) {
        log.warn('old delivered events cannot be removed', { error: e instanceof Error ? e.message : String(e) });
      }
    }
  }

  /** Stops by `deadline` (the engine's graceful shutdown: docs/operations.md "Graceful shutdown"). */
  async stop(deadline: number): Promise<void> {
    this.stopped = true;
    this.cleaner.stop();
    if (this.timer) clearInterval(this.timer);
    if (this.retention) clearInterval(this.retention);
    this.scheduled.stopPolling();
    this.asyncActions.stopPolling();
    await Promise.all([this.polls, this.scheduled.polls, this.asyncActions.polls].map((p) => p.settled(deadline)));
    const deliveries = [this.inFlight, this.scheduled.inFlight, this.asyncActions.inFlight];
    const inFlight = deliveries.reduce((n, d) => n + d.size, 0);
    await Promise.all(deliveries.map((d) => d.settled(deadline)));
    const cut = deliveries.reduce((n, d) => n + d.size, 0);
    for (const d of deliveries) d.cut = true;
    // The calls still going end before their leases go back: none reaches a webhook once its event is pending again.
    this.client.close();
    await Promise.all([
      ...[...this.sources.values()].map(async (s) => {
        // The deliveries that ended are recorded before the rest of the leases go back.
        await s.finishes.flush();
        await s.store.release(this.instance).catch((e: unknown) => log.warn('event leases cannot be given back', { error: String(e) }));
        await close(s);
      }),
      this.scheduled.stop(),
      this.asyncActions.stop(),
    ]);
    log.info('shutdown: deliveries stopped', { inFlight, finished: inFlight - cut, handedBack: cut });
  }

  get inFlightCount(): number {
    return this.inFlight.size;
  }
}

async function close(s: Source): Promise<void> {
  await s.finishes.flush();
  await s.listener.close().catch(() => {});
  await s.store.close().catch(() => {});
}
