/**
 * A PostgreSQL LISTEN connection kept up: re-established with backoff when it drops. A
 * NOTIFY sent while it was down is lost, so the owner is told when it listens again
 * (`listening` with `again`), and checks what it may have missed. Used by the metadata store
 * (other instances' changes) and by the PostgreSQL backend's change capture (writes to
 * tracked tables).
 */
import pg from 'pg';
import { log } from '../log.js';

export interface ListenHandlers {
  /** Each notification's payload. */
  notification(payload: string): void;
  /** Listening, for the first time or `again` after a reconnect; `client` may run queries meanwhile. */
  listening(client: pg.Client, again: boolean): void;
  /** The connection dropped (it is being re-established). */
  lost?(): void;
}

export interface ListenOptions {
  /** Names the connection in `pg_stat_activity`. */
  applicationName: string;
  /** What the log lines call it (`metadata change listener`). */
  label: string;
  /** What still happens while it is down, for the log line. */
  meanwhile: string;
}

const FIRST_RETRY_MS = 100;
const MAX_RETRY_MS = 5_000;

export class PgListener {
  private client: pg.Client | null = null;
  private retry: NodeJS.Timeout | null = null;
  private delayMs = FIRST_RETRY_MS;
  private dropped = false;
  private everListened = false;
  private closed = false;

  constructor(
    private readonly connection: pg.ClientConfig,
    private readonly channel: string,
    private readonly options: ListenOptions,
    private readonly handlers: ListenHandlers,
  ) {}

  /** Resolves once the first attempt is over; a failed one keeps retrying in the background. */
  start(): Promise<void> {
    return this.connect();
  }

  private async connect(): Promise<void> {
    this.retry = null;
    if (this.closed) return;
    const client = new pg.Client({ ...this.connection, application_name: this.options.applicationName });
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
      client.on('notification', (n) => this.handlers.notification(n.payload ?? ''));
      await client.query(`LISTEN ${client.escapeIdentifier(this.channel)}`);
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
      log.info(`${this.options.label} reconnected`);
    }
    const again = this.everListened;
    this.everListened = true;
    this.handlers.listening(client, again);
  }

  private lost(e: Error | undefined): void {
    if (this.closed || this.retry) return;
    if (!this.dropped) {
      this.dropped = true;
      log.warn(`${this.options.label} disconnected; reconnecting (${this.options.meanwhile})`, { error: e?.message ?? 'connection ended' });
      this.handlers.lost?.();
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
