/**
 * The ends of one source's deliveries, written to its event log in batches: one statement per
 * flush (`EventStore.finish`) instead of one transaction, and one WAL flush, per event, which
 * is what held event throughput back (bench/events.mjs). A batch goes when it
 * holds `max` attempts or `delayMs` after its first attempt, one flush at a time. An instance
 * that dies before a flush loses nothing: its events stay leased and are delivered again after
 * the lease time (at least once, as for a death mid-delivery).
 */
import type { EventStore, FinishedAttempt } from '../../backends/faces/events.js';
import { logger } from '../../log.js';

const log = logger('event-trigger');

export class FinishQueue {
  private pending: FinishedAttempt[] = [];
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: EventStore,
    private readonly instance: string,
    private readonly max: number,
    private readonly delayMs: number,
    /** Called after each flush that was written. */
    private readonly flushed: (batch: readonly FinishedAttempt[]) => void,
  ) {}

  add(attempt: FinishedAttempt): void {
    this.pending.push(attempt);
    if (this.pending.length >= this.max) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), this.delayMs);
  }

  /** Writes what is pending (after the flush under way); resolves when all is written or given up. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.pending.length === 0) return this.flushing;
    const batch = this.pending;
    this.pending = [];
    this.flushing = this.flushing.then(() => this.write(batch));
    return this.flushing;
  }

  private async write(batch: FinishedAttempt[]): Promise<void> {
    try {
      await this.store.finish(batch, this.instance);
      this.flushed(batch);
      return;
    } catch (e) {
      if (batch.length === 1) {
        // The lease runs out and the event is fetched again.
        log.warn('an event delivery cannot be recorded', { event: batch[0]!.event.id, trigger: batch[0]!.event.trigger, error: e instanceof Error ? e.message : String(e) });
        return;
      }
    }
    // One attempt that cannot be written does not hold back the others of its batch.
    for (const attempt of batch) await this.write([attempt]);
  }
}
