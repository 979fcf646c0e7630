/**
 * When a multiplexed live query runs. A query some of whose tables are not
 * captured (another backend, no trigger, the feed down: `change-capture.ts`) is polled every
 * interval, as before. A query whose every table is captured runs no statement until one of
 * them is written: the first change runs it at once (leading edge), later ones are coalesced
 * so that it runs at most once per interval, which stays the ceiling between a write and its
 * refetch. A write that lands while the query runs runs it again afterwards. When a feed
 * reconnects or what it captures changes, its queries run once (writes may have been missed).
 */
import { sourceOf, type ChangeCapture } from './change-capture.js';

interface State {
  reads: readonly string[];
  /** A captured write has come since the last full refetch started. */
  dirty: boolean;
  /** When the last full refetch started (ms). */
  lastRun: number;
  timer: NodeJS.Timeout | null;
}

export class RefetchSchedule<Q> {
  private readonly states = new Map<Q, State>();
  /** Table key -> the queries reading it. */
  private readonly readers = new Map<string, Set<Q>>();

  constructor(
    private readonly capture: ChangeCapture | null,
    private readonly intervalMs: number,
    private readonly run: (q: Q) => void,
  ) {
    capture?.listen({ changed: (t) => this.readers.get(t)?.forEach((q) => this.mark(q)), resync: (source) => this.resync(source) });
  }

  /** A new query reading `reads` (table keys). */
  add(q: Q, reads: readonly string[]): void {
    this.states.set(q, { reads, dirty: false, lastRun: 0, timer: null });
    for (const t of reads) {
      let set = this.readers.get(t);
      if (!set) this.readers.set(t, (set = new Set()));
      set.add(q);
      this.capture?.watch(sourceOf(t));
    }
  }

  remove(q: Q): void {
    const s = this.states.get(q);
    if (!s) return;
    if (s.timer) clearTimeout(s.timer);
    this.states.delete(q);
    for (const t of s.reads) {
      const set = this.readers.get(t);
      set?.delete(q);
      if (set?.size === 0) this.readers.delete(t);
    }
  }

  /** Whether the interval's tick runs `q`: unless every table it reads is captured. */
  polled(q: Q): boolean {
    const s = this.states.get(q);
    return !s || !this.capture?.covers(s.reads);
  }

  /** Whether `q`'s results are current: every table it reads is captured, and none was written since its last full refetch started. */
  current(q: Q): boolean {
    const s = this.states.get(q);
    return s !== undefined && !s.dirty && !this.polled(q);
  }

  /** A full refetch of `q` starts: it sees every write committed until now. */
  started(q: Q): void {
    const s = this.states.get(q);
    if (!s) return;
    s.dirty = false;
    s.lastRun = Date.now();
  }

  /** A refetch of `q` ended: a write that came meanwhile runs it again. */
  finished(q: Q): void {
    if (this.states.get(q)?.dirty) this.schedule(q);
  }

  /** `q` may have more to send with no write (a stream's batch was not empty): it runs again within the interval (a polled query does anyway). */
  again(q: Q): void {
    if (!this.polled(q)) this.mark(q);
  }

  private resync(source: string): void {
    for (const [q, s] of this.states) if (s.reads.some((t) => sourceOf(t) === source)) this.mark(q);
  }

  private mark(q: Q): void {
    const s = this.states.get(q);
    if (!s) return;
    s.dirty = true;
    this.schedule(q);
  }

  private schedule(q: Q): void {
    const s = this.states.get(q)!;
    if (s.timer) return;
    s.timer = setTimeout(
      () => {
        s.timer = null;
        if (s.dirty && this.states.get(q) === s) this.run(q);
      },
      Math.max(0, s.lastRun + this.intervalMs - Date.now()),
    );
    s.timer.unref();
  }

  close(): void {
    for (const q of [...this.states.keys()]) this.remove(q);
  }
}
