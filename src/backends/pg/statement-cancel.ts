/**
 * A request's time limit (`api_limits.time_limit`) cancels its statement on the server, as
 * the well-known engine does, rather than leaving it to run for nobody: at the deadline,
 * `pg_cancel_backend` of the connection's server process, sent on a connection of its own
 * (the pool may be full of the statements being cancelled). Nothing is armed for a request
 * without a time limit.
 */
import pg from 'pg';
import { log } from '../../log.js';

/** Arms the cancel of what `client` runs at `deadline` (`performance.now()` time); the returned function disarms it, once any cancel sent has landed (so the connection goes back to the pool idle). */
export function cancelAtDeadline(pool: pg.Pool, client: pg.PoolClient, deadline: number): () => Promise<void> {
  let cancelling: Promise<void> | null = null;
  const timer = setTimeout(() => {
    cancelling = cancelBackend(pool, (client as unknown as { processID: number }).processID);
  }, Math.max(0, deadline - performance.now()));
  return async () => {
    clearTimeout(timer);
    if (cancelling) await cancelling;
  };
}

async function cancelBackend(pool: pg.Pool, pid: number): Promise<void> {
  const c = new pg.Client(pool.options);
  try {
    await c.connect();
    await c.query('SELECT pg_cancel_backend($1)', [pid]);
  } catch (e) {
    log.warn('could not cancel a statement past its time limit', { error: e instanceof Error ? e.message : String(e) });
  } finally {
    await c.end().catch(() => {});
  }
}
