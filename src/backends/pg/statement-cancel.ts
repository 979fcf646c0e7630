/**
 * A request's time limit (`api_limits.time_limit`) cancels its statement on the server, as
 * the well-known engine does, rather than leaving it to run for nobody: when the deadline
 * passes, `pg_cancel_backend` of the connection's server process, sent on a connection of its
 * own (the pool may be full of the statements being cancelled). Nothing is watched for a request
 * without a time limit.
 */
import pg from 'pg';
import { log } from '../../log.js';
import type { StatementDeadline } from '../faces/runtime.js';

/** Cancels what `client` runs when `deadline` passes; the returned function stops watching, once any cancel sent has landed (so the connection goes back to the pool idle). */
export function cancelAtDeadline(pool: pg.Pool, client: pg.PoolClient, deadline: StatementDeadline): () => Promise<void> {
  let cancelling: Promise<void> | null = null;
  const unwatch = deadline.onExpiry(() => {
    cancelling = cancelBackend(pool, (client as unknown as { processID: number }).processID);
  });
  return async () => {
    unwatch();
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
