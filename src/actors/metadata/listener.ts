/**
 * The LISTEN connection that carries other instances' metadata changes. It is only an
 * accelerator (polling still keeps instances in sync), but a dropped connection would
 * silently fall back to the poll interval: it is re-established with backoff, and on
 * every reconnect the caller checks the stored version once, since a NOTIFY sent while
 * disconnected is lost.
 */
import pg from 'pg';
import { log } from '../../log.js';

/** Names the connection in `pg_stat_activity`. */
export const LISTENER_APPLICATION_NAME = 'service-graphql-metadata-listener';

const FIRST_RETRY_MS = 100;
const MAX_RETRY_MS = 5_000;

export class ChangeListener {
  private client: pg.Client | null = null;
  private retry: NodeJS.Timeout | null = null;
  private delayMs = FIRST_RETRY_MS;
  private dropped = false;
  private closed = false;

  constructor(
    private readonly options: pg.ClientConfig,
    private readonly channel: string,
    /** Called on each notification, and once after a reconnect. */
    private readonly onChange: () => void,
  ) {}

  /** Resolves once the first attempt is over; a failed one keeps retrying in the background. */
  start(): Promise<void> {
    return this.connect();
  }

  private async connect(): Promise<void> {
    this.retry = null;
    if (this.closed) return;
    const client = new pg.Client({ ...this.options, application_name: LISTENER_APPLICATION_NAME });
    let lost = false;
    const onLost = (e?: Error) => {
      if (lost) return;
      lost = true;
      if (this.client === client) this.client = null;
      void client.end().catch(() => {});
      this.lost(e);
    };
    client.on('error', onLost);
    client.on('end', () => onLost());
    try {
      await client.connect();
      client.on('notification', this.onChange);
      await client.query(`LISTEN ${this.channel}`);
    } catch (e) {
      onLost(e instanceof Error ? e : new Error(String(e)));
      return;
    }
    if (lost) return;
    if (this.closed) {
      await client.end().catch(() => {});
      return;
    }
    this.client = client;
    this.delayMs = FIRST_RETRY_MS;
    if (this.dropped) {
      this.dropped = false;
      log.info('metadata change listener reconnected');
      this.onChange();
    }
  }

  private lost(e: Error | undefined): void {
    if (this.closed || this.retry) return;
    if (!this.dropped) {
      this.dropped = true;
      log.warn('metadata change listener disconnected; reconnecting (changes are still polled)', { error: e?.message ?? 'connection ended' });
    }
    this.retry = setTimeout(() => void this.connect(), this.delayMs);
    this.delayMs = Math.min(this.delayMs * 2, MAX_RETRY_MS);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    await this.client?.end().catch(() => {});
    this.client = null;
  }
}
