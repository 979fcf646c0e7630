/**
 * Steps run in the order they are given: at once while nothing waits, else after the steps
 * before them. A step may first wait for something of its own (`ready`, null: nothing), and the
 * steps after it wait with it, so what comes later is never seen before what came first.
 */
export class InOrder {
  private tail: Promise<void> | null = null;

  constructor(private readonly onError: (e: unknown) => void) {}

  run(ready: Promise<void> | null, step: () => void): void {
    if (this.tail === null && ready === null) return step();
    const next = (this.tail ?? Promise.resolve())
      .then(() => ready)
      .then(step)
      .catch(this.onError);
    this.tail = next;
    void next.then(() => {
      if (this.tail === next) this.tail = null;
    });
  }
}
