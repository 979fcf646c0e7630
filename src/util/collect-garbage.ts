/**
 * Full garbage collections on demand, for a thread that just let go of a whole metadata
 * document. V8 collects an isolate's old space when allocation pushes it to, not when the
 * thread goes idle: after a replace_metadata at 5,000 tables the metadata actor kept 300 MiB
 * of the old document and its request as garbage for as long as it stayed quiet (issue 10:
 * RSS under 1 GiB at that scale).
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
 * A full collection when the heap grew by 64 MiB since the last one (a request or snapshot
 * that replaced much of the document): called where a thread has just finished such work.
 * Nothing when `allowGarbageCollection` did not run before this thread began.
 */
export function collectGarbageIfGrown(): void {
  const now = heapBytes();
  // V8's own collections lower the mark too.
  baseline = Math.min(baseline, now);
  if (now - baseline < GROWTH_BYTES) return;
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
