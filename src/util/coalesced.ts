/**
 * `task` as a wake-up call: run now, or, while a run is under way, once more after it ends.
 * Runs never overlap and wake-ups never pile up (a burst of notifications makes one more run).
 */
export function coalesced(task: () => Promise<void>): () => void {
  let running = false;
  let again = false;
  const run = (): void => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    void task().finally(() => {
      running = false;
      if (again) {
        again = false;
        run();
      }
    });
  };
  return run;
}
