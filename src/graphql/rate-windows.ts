/**
 * Counting requests in a sliding one-minute window per key (the well-known engine's rate
 * limits: "whenever it receives a request, it counts the rate of that client from the current
 * time to one minute before"). A request is counted only when it is let through, so a client
 * sending twice the allowed rate gets exactly the limit through per minute.
 *
 * On this node by default (`LocalWindows`). With a shared store (Redis, `redis/sliding-window.ts`)
 * every engine counts in the same windows; while the store cannot answer, each node counts on
 * its own (the limit then holds per node), and the shared windows are used again as soon as the
 * store answers.
 */
import { log } from '../log.js';

export const RATE_WINDOW_MS = 60_000;

export interface RateDecision {
  allowed: boolean;
  /** Requests counted in the window, this one included when allowed. */
  count: number;
  /** Milliseconds until the oldest request counted leaves the window (a slot frees up). */
  resetMs: number;
}

/** A store every engine shares (Redis): one atomic step per request. */
export interface SharedWindows {
  /** False while the connection is down: nothing is sent. */
  readonly reachable: boolean;
  take(key: string, max: number): Promise<RateDecision>;
  close(): Promise<void>;
}

/** The time stamps of one key's window, oldest first, from `head` on (shifted out in place, compacted now and then). */
interface Window {
  stamps: number[];
  head: number;
}

export class LocalWindows {
  private readonly windows = new Map<string, Window>();
  private readonly sweeper: NodeJS.Timeout;

  constructor() {
    // Keys whose window emptied are dropped once a minute: a client that went away costs nothing.
    this.sweeper = setInterval(() => this.sweep(performance.now()), RATE_WINDOW_MS).unref();
  }

  /** `now`: `performance.now()`, read once per request by the caller. */
  take(key: string, max: number, now: number): RateDecision {
    let w = this.windows.get(key);
    if (!w) this.windows.set(key, (w = { stamps: [], head: 0 }));
    expire(w, now);
    let count = w.stamps.length - w.head;
    const allowed = count < max;
    if (allowed) {
      w.stamps.push(now);
      count++;
    }
    return { allowed, count, resetMs: w.stamps[w.head]! + RATE_WINDOW_MS - now };
  }

  private sweep(now: number): void {
    for (const [key, w] of this.windows) if (w.stamps.at(-1)! <= now - RATE_WINDOW_MS) this.windows.delete(key);
  }

  close(): void {
    clearInterval(this.sweeper);
  }
}

function expire(w: Window, now: number): void {
  const since = now - RATE_WINDOW_MS;
  while (w.head < w.stamps.length && w.stamps[w.head]! <= since) w.head++;
  if (w.head > 64 && w.head * 2 > w.stamps.length) {
    w.stamps = w.stamps.slice(w.head);
    w.head = 0;
  }
}

/**
 * A store connected but not answering (its command timed out) is left alone this long: requests
 * count on this node meanwhile rather than each waiting for the timeout.
 */
const STALLED_STORE_PAUSE_MS = 1_000;

/** The shared windows while they answer, else this node's. */
export class RateWindows {
  private readonly local = new LocalWindows();
  /** Whether the last shared count failed (logged once per outage; the connection logs its own state too). */
  private failing = false;
  /** Until when (`performance.now()`) the shared store is not asked, after a command of it timed out. */
  private pausedUntil = 0;

  constructor(private readonly shared: SharedWindows | null) {}

  /** Counted on this node, the decision comes at once (no promise); in the shared store, when it answers. */
  take(key: string, max: number, now: number): RateDecision | Promise<RateDecision> {
    const shared = this.shared;
    if (!shared) return this.local.take(key, max, now);
    if (shared.reachable && now >= this.pausedUntil) return this.takeShared(shared, key, max, now);
    this.fellBack(shared.reachable ? 'the shared store did not answer in time' : 'the shared store is unreachable');
    return this.local.take(key, max, now);
  }

  private async takeShared(shared: SharedWindows, key: string, max: number, now: number): Promise<RateDecision> {
    try {
      const d = await shared.take(key, max);
      if (this.failing) log.info('rate limits are counted in the shared store again');
      this.failing = false;
      return d;
    } catch (e) {
      if (shared.reachable) this.pausedUntil = performance.now() + STALLED_STORE_PAUSE_MS;
      this.fellBack(e instanceof Error ? e.message : String(e));
      return this.local.take(key, max, now);
    }
  }

  private fellBack(error: string): void {
    if (!this.failing) log.warn('rate limits are counted on this node while the shared store does not answer', { error });
    this.failing = true;
  }

  async close(): Promise<void> {
    this.local.close();
    await this.shared?.close();
  }
}
