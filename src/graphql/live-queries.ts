/**
 * Subscriptions as live queries: every subscriber of the same request (role, session,
 * query, variables) shares one cohort, polled once per interval; a result is pushed
 * to the cohort's subscribers only when its text changed.
 */
export type Subscriber = (text: string) => void;

interface Cohort {
  poll: () => Promise<string>;
  subscribers: Set<Subscriber>;
  last: string | null;
  running: boolean;
}

export class LiveQueries {
  private readonly cohorts = new Map<string, Cohort>();
  private readonly timer: NodeJS.Timeout;

  constructor(intervalMs: number) {
    this.timer = setInterval(() => this.tick(), intervalMs);
    this.timer.unref();
  }

  /** Adds a subscriber; it gets the current result at once. Returns how to unsubscribe. */
  subscribe(key: string, poll: () => Promise<string>, subscriber: Subscriber): () => void {
    let cohort = this.cohorts.get(key);
    if (!cohort) {
      cohort = { poll, subscribers: new Set(), last: null, running: false };
      this.cohorts.set(key, cohort);
    }
    cohort.subscribers.add(subscriber);
    if (cohort.last !== null) subscriber(cohort.last);
    else void this.refresh(cohort);
    return () => {
      cohort!.subscribers.delete(subscriber);
      if (cohort!.subscribers.size === 0) this.cohorts.delete(key);
    };
  }

  get size(): number {
    return this.cohorts.size;
  }

  private tick(): void {
    for (const cohort of this.cohorts.values()) void this.refresh(cohort);
  }

  private async refresh(cohort: Cohort): Promise<void> {
    // A slow poll is not started again before it finishes.
    if (cohort.running) return;
    cohort.running = true;
    try {
      const text = await cohort.poll();
      if (text !== cohort.last) {
        cohort.last = text;
        for (const s of cohort.subscribers) s(text);
      }
    } finally {
      cohort.running = false;
    }
  }

  close(): void {
    clearInterval(this.timer);
    this.cohorts.clear();
  }
}
