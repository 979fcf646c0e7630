/**
 * Trigger DDL on tables that clients use (change capture's and event triggers' CREATE/DROP
 * TRIGGER), with bounded lock waits: each batch runs in a transaction of its own whose
 * `lock_timeout` is short of PostgreSQL's deadlock_timeout (1 s), so a client's statement that
 * locks the same tables in another order (`TRUNCATE b, a` while a batch holds `a` and waits for
 * `b`) is never the one a deadlock aborts: the batch gives up `b` and tries it again after the
 * client is done, a few times. A table still held after the last try comes back as a failure
 * marked `lockTimeout` (the caller says so or logs it); nothing waits forever.
 */
import type pg from 'pg';

const LOCK_TIMEOUT = '200ms';
const LOCK_ATTEMPTS = 5;
const LOCK_RETRY_MS = 500;
/** How long the tries of one item last at most, for messages. */
export const LOCK_WAIT_SECONDS = (LOCK_ATTEMPTS * (200 + LOCK_RETRY_MS)) / 1000;

/** An item the batch statement failed on (a subtransaction's error, or the statement's for all its items). */
export interface ItemFailure<T> {
  item: T;
  error: string;
}

export interface BoundedFailure<T> extends ItemFailure<T> {
  /** Its table stayed locked by another session through every try. */
  lockTimeout: boolean;
}

/** SQLERRM of lock_not_available (55P03) from a lock_timeout. */
const isLockTimeout = (error: string) => error.includes('lock timeout');

/**
 * Runs `items` through `statement` (one batch's DDL on `client`, returning the items it failed
 * on), `perStatement` at a time, each batch in a transaction with bounded lock waits; items
 * whose table was locked are tried again. Returns the items that failed in the end.
 */
export async function runLockBounded<T>(
  pool: pg.Pool,
  items: readonly T[],
  perStatement: number,
  statement: (client: pg.PoolClient, batch: T[]) => Promise<ItemFailure<T>[]>,
): Promise<BoundedFailure<T>[]> {
  const failed: BoundedFailure<T>[] = [];
  let todo = [...items];
  for (let attempt = 1; todo.length > 0; attempt++) {
    const busy: T[] = [];
    for (let from = 0; from < todo.length; from += perStatement) {
      for (const f of await boundedBatch(pool, todo.slice(from, from + perStatement), statement)) {
        const lockTimeout = isLockTimeout(f.error);
        if (lockTimeout && attempt < LOCK_ATTEMPTS) busy.push(f.item);
        else failed.push({ ...f, lockTimeout });
      }
    }
    todo = busy;
    if (busy.length > 0) await new Promise((r) => setTimeout(r, LOCK_RETRY_MS));
  }
  return failed;
}

/** One batch in a transaction of its own whose lock waits are bounded; the items it failed on. */
async function boundedBatch<T>(pool: pg.Pool, batch: T[], statement: (client: pg.PoolClient, batch: T[]) => Promise<ItemFailure<T>[]>): Promise<ItemFailure<T>[]> {
  let client: pg.PoolClient | undefined;
  try {
    client = await pool.connect();
    await client.query('BEGIN');
    await client.query(`SET LOCAL lock_timeout = '${LOCK_TIMEOUT}'`);
    const failures = await statement(client, batch);
    await client.query('COMMIT');
    return failures;
  } catch (e) {
    await client?.query('ROLLBACK').catch(() => {});
    return batch.map((item) => ({ item, error: e instanceof Error ? e.message : String(e) }));
  } finally {
    client?.release();
  }
}
