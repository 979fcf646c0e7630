/**
 * Work in flight on the trigger-delivery actor (deliveries of one kind, or its polls), for its
 * graceful stop: waited for until the engine's shutdown deadline, then cut. A delivery that ends
 * after the cut is not recorded: its lease is given back and the event stays pending, to be
 * delivered by this engine once restarted or by another (docs/operations.md "Graceful shutdown").
 */
export class InFlight {
  private readonly running = new Set<Promise<void>>();
  /** Set at the deadline: what ends from then on is not recorded. */
  cut = false;

  get size(): number {
    return this.running.size;
  }

  /** Runs `work`, counted until it settles; `then` runs after. */
  track(work: () => Promise<void>, then?: () => void): Promise<void> {
    const p: Promise<void> = work().finally(() => {
      this.running.delete(p);
      then?.();
    });
    this.running.add(p);
    return p;
  }

  /** Resolves when nothing is in flight (true), those tracked meanwhile included, or at `deadline` (false). */
  async settled(deadline: number): Promise<boolean> {
    while (this.running.size > 0) {
      const left = deadline - Date.now();
      if (left <= 0) return false;
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([Promise.allSettled([...this.running]), new Promise((r) => (timer = setTimeout(r, left)))]);
      clearTimeout(timer);
    }
    return true;
  }
}
