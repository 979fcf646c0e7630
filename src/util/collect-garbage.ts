/**
 * Full garbage collections when a thread goes idle after big work. V8 collects an isolate's
 * old space when allocation pushes it to, not when the thread goes quiet: after a
 * replace_metadata at 5,000 tables the metadata actor kept 300 MiB of the old document and its
 * request as garbage for as long as it stayed quiet (RSS under 1 GiB at that scale).
 */
import v8 from 'node:v8';
import vm from 'node:vm';

/**
 * Makes `gc` available to the threads started after it (a process-wide V8 flag read when a
 * context is made): the composition root calls it before it starts any actor.
 */
export function allowGarbageCollection(): void {
  v8.setFlagsFromString('--expose-gc');
}

/** Growth of the heap and its external memory since the last full collection that calls for another. */
const GROWTH_BYTES = 64 * 2 ** 20;
let gc: (() => void) | null | undefined;
/** The heap and external memory after this thread's last full collection (or the least seen since). */
let baseline = Infinity;

const heapBytes = () => {
  const h = v8.getHeapStatistics();
  return h.used_heap_size + h.external_memory;
};

/**
 * After work that may have left much garbage (a request or snapshot that replaced much of the
 * document, role schemas built): once the thread has been idle for a second, a full collection
 * if the heap grew by 64 MiB since the last one. Work that comes first postpones it, so a burst
 * of requests never waits on it.
 */
export function collectGarbageWhenIdle(): void {
  if (idle) clearTimeout(idle);
  idle = setTimeout(() => {
    idle = null;
    collectIfGrown(GROWTH_BYTES);
  }, IDLE_MS);
  idle.unref();
}

/**
 * `collectGarbageWhenIdle`, and, if the heap grew by 128 MiB, a collection as soon as the work in
 * hand is answered: the schema builder building eleven role schemas back to back at 5,000
 * tables let its heap pass twice its live size, and the engine 1 GiB (at 256 MiB the engine
 * still peaked at 1,030-1,080 MiB, at 128 MiB 948-972 MiB, bench/RESULTS.md). The schema builder
 * only: the metadata actor collecting the old document and its request right after a
 * replace_metadata at 5,000 tables (95 ms of its thread, more of V8's helper threads) took the
 * cores the schema builder was taking the new snapshot in on, and the first query after the
 * replace waited for it (534-693 ms, 447-529 ms without it); it collects when idle, a second later.
 */
export function collectGarbageAfterBurst(): void {
  collectGarbageWhenIdle();
  if (soon || heapBytes() - baseline < BURST_GROWTH_BYTES) return;
  soon = setImmediate(() => {
    soon = null;
    collectIfGrown(BURST_GROWTH_BYTES);
  });
}

const IDLE_MS = 1000;
const BURST_GROWTH_BYTES = 128 * 2 ** 20;
let idle: NodeJS.Timeout | null = null;
let soon: NodeJS.Immediate | null = null;

function collectIfGrown(growth: number): void {
  const now = heapBytes();
  // V8's own collections lower the mark too.
  baseline = Math.min(baseline, now);
  if (now - baseline < growth) return;
  if (gc === undefined) gc = (globalThis as { gc?: () => void }).gc ?? contextGc();
  if (!gc) return;
  gc();
  baseline = heapBytes();
}

/** The thread that set the flag made its own context before: a new context has `gc`. */
function contextGc(): (() => void) | null {
  try {
    return vm.runInNewContext('gc') as () => void;
  } catch {
    return null;
  }
}
