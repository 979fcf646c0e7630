/**
 * Requests' time limits (`api_limits.time_limit`, seconds, fractions allowed): at its deadline a
 * request fails with `time-limit-exceeded`, whatever is still running (a remote schema's or an
 * action's call is left unanswered), and the statements it has running are cancelled on the
 * database (`StatementDeadline`, backends/faces/runtime.ts).
 *
 * No timer per request: requests under the same limit end in the order they started, so one
 * queue per limit value, oldest first, and one timer for the queue, set for the oldest deadline
 * (and at least every SWEEP_MS while requests wait, to let the answered ones go).
 */
import { LimitExceeded } from '../errors/request.js';
import type { StatementDeadline } from '../backends/faces/runtime.js';

const SWEEP_MS = 100;

export const timeLimitExceeded = (seconds: number) => new LimitExceeded(`time limit of ${seconds} seconds exceeded`, 'time-limit-exceeded');

const unwatched = () => {};

export class Deadline implements StatementDeadline {
  expired = false;
  /** Answered or failed: its queue drops it. */
  settled = false;
  private watchers: (() => void)[] | null = null;
  private fail: ((e: Error) => void) | null = null;

  constructor(
    readonly at: number,
    readonly seconds: number,
  ) {}

  onExpiry(cancel: () => void): () => void {
    if (this.expired) {
      cancel();
      return unwatched;
    }
    (this.watchers ??= []).push(cancel);
    // Called when the statement ends, which may be after the deadline (the watchers are gone then).
    return () => {
      const i = this.watchers?.indexOf(cancel) ?? -1;
      if (i >= 0) this.watchers!.splice(i, 1);
    };
  }

  /** `running`, failed at the deadline if it has not settled by then. */
  bound<T>(running: Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.fail = reject;
      running.then(
        (v) => {
          this.settled = true;
          resolve(v);
        },
        (e: unknown) => {
          this.settled = true;
          // A statement cancelled at the deadline fails with the database's own words.
          reject(this.expired ? timeLimitExceeded(this.seconds) : e);
        },
      );
    });
  }

  expire(): void {
    this.expired = true;
    for (const cancel of this.watchers ?? []) cancel();
    this.watchers = null;
    this.fail?.(timeLimitExceeded(this.seconds));
  }
}

class DeadlineQueue {
  private items: Deadline[] = [];
  private head = 0;
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly seconds: number) {}

  start(now: number): Deadline {
    const d = new Deadline(now + this.seconds * 1000, this.seconds);
    this.items.push(d);
    if (this.timer === null) this.arm(now);
    return d;
  }

  private arm(now: number): void {
    const next = this.items[this.head];
    if (!next) {
      this.items = [];
      this.head = 0;
      return;
    }
    this.timer = setTimeout(() => this.fire(), Math.min(Math.max(0, next.at - now), SWEEP_MS)).unref();
  }

  private fire(): void {
    this.timer = null;
    const now = performance.now();
    while (this.head < this.items.length) {
      const d = this.items[this.head]!;
      if (!d.settled && d.at > now) break;
      this.head++;
      if (!d.settled) d.expire();
    }
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    this.arm(now);
  }

  close(): void {
    if (this.timer) clearTimeout(this.timer);
  }
}

/** The front thread's queues, one per time limit value. */
export class Deadlines {
  private readonly queues = new Map<number, DeadlineQueue>();

  /** A request's deadline, `seconds` after `now` (`performance.now()`: when the request came). */
  start(seconds: number, now: number): Deadline {
    let q = this.queues.get(seconds);
    if (!q) this.queues.set(seconds, (q = new DeadlineQueue(seconds)));
    return q.start(now);
  }

  close(): void {
    for (const q of this.queues.values()) q.close();
  }
}
