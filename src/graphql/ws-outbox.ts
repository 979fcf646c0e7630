/**
 * What a GraphQL WebSocket connection writes, under backpressure. The socket reports
 * whether it took a message whole or had to buffer part of it (its client reads slower
 * than results come). While it is congested a live query's results are not queued one
 * after the other: only the newest undelivered result of each operation is kept, and it
 * is written when the socket drains. Every other message (acknowledgements, query
 * results, a streaming subscription's batches of new rows, errors, `complete`) must arrive, so it goes to the socket's buffer; past
 * `maxBufferedBytes` (buffered plus kept) the connection is given up instead.
 */

/** What the socket did with a message: took it, buffered part of it, or dropped it. */
export type SendStatus = 'sent' | 'buffered' | 'dropped';

export interface WsPeer {
  send(text: string): SendStatus;
  /** Runs `write`, whose sends leave together (uWS: one write to the socket). */
  cork(write: () => void): void;
  /** Bytes written to the socket that its client has not taken yet. */
  bufferedBytes(): number;
  close(code: number, reason: string): void;
}

export class Outbox {
  private congested = false;
  /** The newest undelivered live result per operation, written when the socket drains. */
  private readonly latest = new Map<string, string>();
  private latestBytes = 0;

  constructor(
    private readonly peer: WsPeer,
    private readonly maxBufferedBytes: number,
    /** The client does not read what it asked for (or the socket dropped a message). */
    private readonly overflow: () => void,
  ) {}

  /** A message that must arrive. */
  send(text: string): void {
    if (this.peer.bufferedBytes() + this.latestBytes > this.maxBufferedBytes) return this.overflow();
    this.write(text);
  }

  /** A live query's result: while the socket is congested it replaces the one not yet written. */
  sendLatest(operation: string, text: string): void {
    this.forget(operation);
    this.drain();
    if (!this.congested) return this.send(text);
    this.latest.set(operation, text);
    this.latestBytes += Buffer.byteLength(text);
    if (this.peer.bufferedBytes() + this.latestBytes > this.maxBufferedBytes) this.overflow();
  }

  /**
   * A result that must arrive (a stream's batch of new rows, an error), after the operation's
   * kept result if it has one: a batch replaced by the next would lose its rows.
   */
  sendAfterKept(operation: string, text: string): void {
    const kept = this.latest.get(operation);
    if (kept !== undefined) {
      this.forget(operation);
      this.send(kept);
    }
    this.send(text);
  }

  /** Drops an operation's kept result (it was stopped). */
  forget(operation: string): void {
    const text = this.latest.get(operation);
    if (text === undefined) return;
    this.latest.delete(operation);
    this.latestBytes -= Buffer.byteLength(text);
  }

  /** The socket wrote some of its buffer: once it is empty, the kept results go (also checked at each new result). */
  drain(): void {
    if (!this.congested || this.peer.bufferedBytes() > 0) return;
    this.congested = false;
    for (const [operation, text] of this.latest) {
      this.forget(operation);
      this.write(text);
      if (this.congested) return;
    }
  }

  private write(text: string): void {
    const status = this.peer.send(text);
    if (status === 'dropped') this.overflow();
    else if (status === 'buffered') this.congested = true;
  }
}
