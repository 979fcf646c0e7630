/**
 * The LISTEN connection that carries other instances' metadata changes (`db/listener.ts`). It
 * is only an accelerator (polling still keeps instances in sync), but a dropped connection
 * would silently fall back to the poll interval: it is re-established with backoff, and on
 * every reconnect the caller checks the stored version once, since a NOTIFY sent while
 * disconnected is lost.
 */
import type pg from 'pg';
import { PgListener } from './listener.js';

/** Names the connection in `pg_stat_activity`. */
export const LISTENER_APPLICATION_NAME = 'service-graphql-metadata-listener';

/** `onChange` is called on each notification, and once after a reconnect. */
export function metadataListener(connection: pg.ClientConfig, channel: string, onChange: () => void): PgListener {
  return new PgListener(
    connection,
    channel,
    { applicationName: LISTENER_APPLICATION_NAME, label: 'metadata change listener', meanwhile: 'changes are still polled' },
    { notification: onChange, listening: (_, again) => again && onChange() },
  );
}
