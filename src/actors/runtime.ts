/**
 * The main-thread side of an actor: a worker thread spoken to through msgpack
 * request/reply messages with correlation ids and timeouts. A crashed worker is
 * restarted; requests in flight when it died are answered with an error, never left
 * hanging.
 */
import { Worker } from 'node:worker_threads';
import { decode, encode } from '../protocol/codec.js';
import { transferable, unframe, type Envelope, type EventEnvelope, type Frame, type RequestEnvelope, type ShutdownMessage } from '../protocol/envelope.js';
import { log } from '../log.js';
import { errorFromWire } from '../errors/wire.js';

export class ActorUnavailable extends Error {}

interface Pending {
  resolve(v: unknown): void;
  reject(e: Error): void;
  timer: NodeJS.Timeout;
}

export interface ActorOptions {
  name: string;
  script: URL;
  workerData: unknown;
  timeoutMs: number;
  /** How long `stop` waits for the requests in flight to be answered (5 s). */
  stopGraceMs?: number;
}

export class Actor<Req extends { type: string }, Replies extends Record<Req['type'], unknown>, Event> {
  private worker!: Worker;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly listeners: ((e: Event, attachment: Uint8Array | undefined) => void)[] = [];
  private stopping = false;
  private restarts = 0;
  /** Between a crash and the restarted worker's `ready`: requests fail at once instead of waiting for a timeout. */
  private down = false;
  private readyWaiters: { resolve(): void; reject(e: Error): void } | null = null;
  private readonly readyListeners: ((restarted: boolean) => void)[] = [];
  private started = false;

  constructor(private readonly opts: ActorOptions) {}

  /** Starts the worker and waits for its `ready` event (boot may fail: the error is returned). */
  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.readyWaiters = { resolve, reject };
      this.spawn();
    });
  }

  onEvent(listener: (e: Event, attachment: Uint8Array | undefined) => void): void {
    this.listeners.push(listener);
  }

  /**
   * Called each time the worker is ready: after `start`, and after each restart (`restarted`),
   * when a worker that keeps state (the multiplexers) is given it again.
   */
  onReady(listener: (restarted: boolean) => void): void {
    this.readyListeners.push(listener);
  }

  /**
   * A one-way message (no reply, no timeout). Dropped before the worker is first ready and while it is down: an actor
   * whose state matters gives it again on `onReady`.
   */
  tell(message: { type: string }): void {
    if (this.down || this.stopping || !this.started) return;
    const bytes = encode({ kind: 'event', body: message } satisfies EventEnvelope);
    this.worker.postMessage(bytes, [bytes.buffer as ArrayBuffer]);
  }

  /** `attachment`: bulk bytes beside the envelope (see `Frame`), handed over rather than copied when they own their buffer. */
  request<T extends Req['type']>(body: Extract<Req, { type: T }>, attachment?: Uint8Array): Promise<Replies[T]> {
    if (this.down) return Promise.reject(new ActorUnavailable(`${this.opts.name} actor is restarting; try again`));
    const id = this.nextId++;
    return new Promise<Replies[T]>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new ActorUnavailable(`${this.opts.name} actor did not answer within ${this.opts.timeoutMs} ms`));
      }, this.opts.timeoutMs);
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject, timer });
      const env: RequestEnvelope = { kind: 'request', id, body };
      const bytes = encode(env);
      this.worker.postMessage(attachment ? ({ envelope: bytes, attachment } satisfies Frame) : bytes, [bytes.buffer as ArrayBuffer, ...transferable(attachment)]);
    });
  }

  /** Ends the worker as a crash would, so it is restarted (`/dev/subscriptions/restart`). */
  async kill(): Promise<void> {
    if (!this.down && !this.stopping) await this.worker.terminate();
  }

  /**
   * `workUntil`: when the worker's own work in flight must be done (epoch ms; see
   * `ShutdownMessage`); it is then given 5 s more to close before it is terminated.
   */
  async stop(workUntil = Date.now()): Promise<void> {
    this.stopping = true;
    // A graceful stop answers the requests it took: those in flight get their answers first, for
    // a while (a request that hangs is failed after it).
    const deadline = Date.now() + (this.opts.stopGraceMs ?? 5000);
    while (this.pending.size > 0 && !this.down && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    this.failPending('engine is shutting down');
    this.worker.postMessage(encode({ kind: 'event', body: { type: 'shutdown', deadline: workUntil } satisfies ShutdownMessage }));
    const exited = new Promise<void>((r) => this.worker.once('exit', () => r()));
    const timeout = new Promise<void>((r) => setTimeout(r, Math.max(0, workUntil - Date.now()) + 5000).unref());
    await Promise.race([exited, timeout]);
    await this.worker.terminate();
  }

  private spawn(): void {
    const w = new Worker(this.opts.script, { workerData: this.opts.workerData });
    this.worker = w;
    w.on('message', (frame: Frame) => this.onMessage(frame));
    w.on('error', (err) => {
      log.error(`${this.opts.name} actor crashed`, { error: err.message, stack: err.stack });
    });
    w.on('exit', (code) => {
      if (this.worker !== w) return;
      this.failPending(`${this.opts.name} actor stopped (exit code ${code}); the request was not completed`);
      if (this.readyWaiters) {
        this.readyWaiters.reject(new Error(`${this.opts.name} actor failed to start (exit code ${code})`));
        this.readyWaiters = null;
        return;
      }
      if (this.stopping) return;
      this.down = true;
      const delay = Math.min(5000, 100 * 2 ** this.restarts++);
      log.warn(`restarting ${this.opts.name} actor`, { exitCode: code, delayMs: delay });
      setTimeout(() => this.spawn(), delay);
    });
  }

  private onMessage(frame: Frame): void {
    const [bytes, attachment] = unframe(frame);
    const env = decode<Envelope | { kind: 'ready' } | { kind: 'fatal'; error: string }>(bytes);
    switch (env.kind) {
      case 'reply': {
        const p = this.pending.get(env.id);
        if (!p) return; // timed out already
        this.pending.delete(env.id);
        clearTimeout(p.timer);
        if (env.ok) p.resolve(env.body);
        else p.reject(errorFromWire(env.error));
        return;
      }
      case 'event':
        for (const l of this.listeners) l(env.body as Event, attachment);
        return;
      case 'ready': {
        this.restarts = 0;
        this.down = false;
        this.readyWaiters?.resolve();
        this.readyWaiters = null;
        const restarted = this.started;
        this.started = true;
        for (const l of this.readyListeners) l(restarted);
        return;
      }
      case 'fatal':
        this.readyWaiters?.reject(new Error(env.error));
        this.readyWaiters = null;
        return;
      case 'request':
        return; // workers do not call the main thread
    }
  }

  private failPending(message: string): void {
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      p.reject(new ActorUnavailable(message));
      this.pending.delete(id);
    }
  }
}
