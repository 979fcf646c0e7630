/**
 * Cron triggers and one-off scheduled events on the trigger-delivery actor (spec "Events" 3):
 * each cron trigger's next occurrences are made ahead as events in the metadata database
 * (instances agree: one row per trigger and time), and due events are leased, delivered and
 * recorded as event-trigger events are, with `retry_conf`'s retries; an event due longer ago
 * than its `tolerance_seconds` is marked `dead` and never sent.
 */
import { Cron } from 'croner';
import { ScheduledEventStore, type ScheduledEventRow } from '../../db/scheduled-events.js';
import { scheduledTarget, type CronTriggerView, type ScheduledTarget } from '../../metadata/scheduled-triggers.js';
import { logger } from '../../log.js';
import type { HttpClient } from '../../outgoing/http-client.js';
import { deliver } from './delivery.js';
import type { EventMetrics } from './metrics.js';
import { InFlight } from './in-flight.js';

const log = logger('scheduled-trigger');

/** Cron events made ahead per trigger. */
const AHEAD = 10;
const GENERATE_EVERY_MS = 60_000;

export class ScheduledDelivery {
  private readonly store: ScheduledEventStore;
  private triggers = new Map<string, CronTriggerView>();
  readonly inFlight = new InFlight();
  /** The poll under way, if any. */
  readonly polls = new InFlight();
  private generator: NodeJS.Timeout | null = null;
  private stopped = false;
  private queue: Promise<void> = Promise.resolve();

  constructor(
    catalogUrl: string,
    private readonly client: HttpClient,
    private readonly limits: { batchSize: number; poolSize: number },
    private readonly instance: string,
    private readonly metrics: EventMetrics | null = null,
  ) {
    this.store = new ScheduledEventStore(catalogUrl);
  }

  start(): void {
    this.generator = setInterval(() => void this.generate([...this.triggers.values()]), GENERATE_EVERY_MS);
  }

  update(cron: readonly CronTriggerView[]): void {
    const before = this.triggers;
    this.triggers = new Map(cron.map((t) => [t.name, t]));
    const gone = [...before.keys()].filter((name) => !this.triggers.has(name));
    // In turn with the generation: events made for a trigger just deleted go with it.
    if (gone.length > 0) this.queue = this.queue.then(() => this.store.dropScheduled(gone)).catch((e: unknown) => log.warn('events of deleted cron triggers cannot be removed', { error: String(e) }));
    void this.generate(cron.filter((t) => before.get(t.name)?.schedule !== t.schedule));
  }

  /** Makes the next events of `triggers`, in turn with the other changes to them. */
  private generate(triggers: readonly CronTriggerView[]): Promise<void> {
    this.queue = this.queue.then(() => this.generateNow(triggers));
    return this.queue;
  }

  private async generateNow(triggers: readonly CronTriggerView[]): Promise<void> {
    for (const t of triggers) {
      try {
        const job = new Cron(t.schedule, { paused: true, timezone: 'Etc/UTC' });
        const times = job.nextRuns(AHEAD);
        job.stop();
        await this.store.generate(t.name, times);
      } catch (e) {
        log.warn('cron events cannot be made', { trigger: t.name, error: e instanceof Error ? e.message : String(e) });
      }
    }
  }

  /** One poll: dead events marked, due ones leased and delivered (a poll under way is not doubled). */
  poll(): void {
    if (this.polls.size === 0 && !this.stopped) void this.polls.track(() => this.pollNow());
  }

  private async pollNow(): Promise<void> {
    try {
      await this.store.markDead(Object.fromEntries([...this.triggers.values()].map((t) => [t.name, t.retry.toleranceSec])));
      const room = Math.min(this.limits.batchSize, this.limits.poolSize - this.inFlight.size);
      if (room <= 0) return;
      for (const row of await this.store.fetch([...this.triggers.keys()], room, this.instance)) void this.inFlight.track(() => this.deliverOne(row));
    } catch (e) {
      log.warn('scheduled events cannot be fetched', { error: e instanceof Error ? e.message : String(e) });
    }
  }

  private async deliverOne(row: ScheduledEventRow): Promise<void> {
    const cron = row.trigger_name === null ? undefined : this.triggers.get(row.trigger_name);
    const target: ScheduledTarget | null | undefined = cron ?? (row.delivery ? scheduledTarget(row.delivery as never, process.env) : null);
    try {
      if (!target) throw new Error('its trigger or an environment variable it needs is gone');
      // The well-known engine's bodies: a cron event names its trigger.
      const body: Record<string, unknown> = { scheduled_time: row.scheduled_time, payload: cron ? cron.payload : row.payload, ...(cron ? { name: cron.name } : {}), id: row.id, comment: cron ? cron.comment : row.comment };
      const attempt = await deliver(this.client, target, body, row.tries, cron ? `cron trigger ${cron.name}` : 'scheduled event');
      if (this.inFlight.cut) return;
      this.metrics?.scheduledDelivered(cron ? 'cron' : 'oneoff', attempt);
      await this.store.finish(row.id, attempt.invocation, attempt.outcome, this.instance);
    } catch (e) {
      log.warn('a scheduled event cannot be delivered', { event: row.id, error: e instanceof Error ? e.message : String(e) });
    }
  }

  /** No poll from now on (the engine stops). */
  stopPolling(): void {
    this.stopped = true;
    if (this.generator) clearInterval(this.generator);
  }

  /** After the deliveries in flight ended or were cut: gives back the leases still held. */
  async stop(): Promise<void> {
    await this.store.release(this.instance).catch(() => {});
    await this.store.close().catch(() => {});
  }
}
