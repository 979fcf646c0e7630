/**
 * The HTTP requests the front has taken and not answered yet, for the graceful shutdown
 * (docs/operations.md "Graceful shutdown"): a stopping engine answers them before it goes on.
 * One counter on the request path, nothing allocated.
 */
export class RequestsInFlight {
  private count = 0;
  private idle: (() => void) | null = null;
  /** Set when the engine stops: each answer closes its connection, so a keep-alive client goes elsewhere. */
  draining = false;

  get size(): number {
    return this.count;
  }

  begin(): void {
    this.count++;
  }

  end(): void {
    if (--this.count === 0) this.idle?.();
  }

  /** Resolves when none is in flight (true) or at `deadline` (false). */
  settled(deadline: number): Promise<boolean> {
    if (this.count === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.idle = null;
        resolve(false);
      }, Math.max(0, deadline - Date.now()));
      this.idle = () => {
        clearTimeout(timer);
        this.idle = null;
        resolve(true);
      };
    });
  }
}
