/** What the event trigger tests share: waiting for something to happen, and reading the source's event log. */
import type { TestDatabase } from './db.js';

/** Polls `fn` every 50 ms until it gives something other than undefined or false. */
export async function until<T>(what: string, fn: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs = 10_000): Promise<T> {
  const start = Date.now();
  for (;;) {
    const v = await fn();
    if (v !== undefined && v !== false) return v;
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A trigger's events in the source's event log, oldest first. */
export const eventRows = async (db: TestDatabase, trigger: string) =>
  (await db.sql('SELECT * FROM service_catalog.event_log WHERE trigger_name = $1 ORDER BY created_at', [trigger])).rows;

/** A trigger's recorded invocations, oldest first. */
export const invocationRows = async (db: TestDatabase, trigger: string) =>
  (await db.sql('SELECT * FROM service_catalog.event_invocation_logs WHERE trigger_name = $1 ORDER BY created_at', [trigger])).rows;
