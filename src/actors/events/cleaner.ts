/**
 * The scheduled event log cleanup (spec "Event trigger" `cleanup_config`, "States and
 * transitions": Event trigger log cleaner): one cron job per trigger whose cleanup is not
 * paused, run by the trigger-delivery actor on its source's event log. A job never overlaps
 * itself; instances sharing a source may each run it (the deletes are idempotent).
 */
import { Cron } from 'croner';
import type { EventStore } from '../../backends/faces/events.js';
import { cleanupInBatches, type EventTriggerView, type LogCleanup } from '../../metadata/event-triggers.js';
import { logger } from '../../log.js';

const log = logger('event-trigger');

interface Job {
  key: string;
  cron: Cron;
}

export class LogCleaner {
  private readonly jobs = new Map<string, Job>();

  /** Jobs for `triggers` of their sources' stores (`store(source)`); others stop. */
  update(triggers: readonly EventTriggerView[], store: (source: string) => EventStore | undefined): void {
    const wanted = new Map<string, { trigger: EventTriggerView; cleanup: LogCleanup & { schedule: string } }>();
    for (const t of triggers) if (t.cleanup?.schedule) wanted.set(`${t.source}\u0000${t.name}`, { trigger: t, cleanup: { ...t.cleanup, schedule: t.cleanup.schedule } });
    for (const [id, job] of this.jobs) {
      const w = wanted.get(id);
      if (!w || JSON.stringify(w.cleanup) !== job.key) {
        job.cron.stop();
        this.jobs.delete(id);
      }
    }
    for (const [id, { trigger, cleanup }] of wanted) {
      if (this.jobs.has(id)) continue;
      const cron = new Cron(cleanup.schedule, { protect: true, utcOffset: 0 }, async () => {
        const s = store(trigger.source);
        if (!s) return;
        try {
          if (!(await s.ready())) return;
          const done = await cleanupInBatches(cleanup, () => s.cleanupBatch(trigger.name, cleanup.clearOlderThanHours, cleanup.batchSize, cleanup.cleanInvocationLogs));
          log.info('event trigger logs cleaned', { source: trigger.source, trigger: trigger.name, ...done });
        } catch (e) {
          log.warn('event trigger log cleanup failed', { source: trigger.source, trigger: trigger.name, error: e instanceof Error ? e.message : String(e) });
        }
      });
      this.jobs.set(id, { key: JSON.stringify(cleanup), cron });
    }
  }

  stop(): void {
    for (const job of this.jobs.values()) job.cron.stop();
    this.jobs.clear();
  }
}
