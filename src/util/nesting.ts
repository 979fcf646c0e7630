/**
 * The nesting limit of every JSON input (admin bodies, GraphQL requests and their
 * variables) and of GraphQL documents. JSON.parse copes with any depth, but what comes
 * after it (decoders, boolean expressions, SQL building, msgpack between threads,
 * JSON.stringify) recurses: a body nested thousands of levels deep overflows the
 * stack. Checked right after parsing, before anything recursive runs, so whatever is
 * stored can always be loaded, compiled and sent between threads.
 */
import { keyPath } from './decode.js';

/** Levels of arrays and objects (the top-level value is level 1); see docs/behaviour.md. */
export const MAX_NESTING_DEPTH = 256;

interface Frame {
  container: unknown[] | Record<string, unknown>;
  /** The object's keys; null for an array. */
  keys: string[] | null;
  next: number;
}

/** The JSON path of the first array or object nested deeper than `limit`, or null. */
export function tooDeepAt(value: unknown, root = '$', limit = MAX_NESTING_DEPTH): string | null {
  const at = tooDeepSegments(value, limit);
  return at && segmentsPath(at, root);
}

/** `$.a[0].b` from `['a', 0, 'b']`. */
export const segmentsPath = (segments: (string | number)[], root = '$') =>
  segments.reduce<string>((path, s) => (typeof s === 'number' ? `${path}[${s}]` : keyPath(path, s)), root);

/**
 * The keys and indexes leading to the first array or object nested deeper than
 * `limit`, or null. Iterative (an explicit stack), so it never overflows itself.
 */
export function tooDeepSegments(value: unknown, limit = MAX_NESTING_DEPTH): (string | number)[] | null {
  const stack: Frame[] = [];
  const frame = (v: unknown): Frame | null => {
    if (typeof v !== 'object' || v === null) return null;
    return Array.isArray(v) ? { container: v, keys: null, next: 0 } : { container: v as Record<string, unknown>, keys: Object.keys(v), next: 0 };
  };
  const first = frame(value);
  if (first) stack.push(first);
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    const size = top.keys ? top.keys.length : (top.container as unknown[]).length;
    if (top.next >= size) {
      stack.pop();
      continue;
    }
    const i = top.next++;
    const child = frame(top.keys ? (top.container as Record<string, unknown>)[top.keys[i]!] : (top.container as unknown[])[i]);
    if (!child) continue;
    stack.push(child);
    if (stack.length > limit) return stack.slice(0, -1).map((f) => (f.keys ? f.keys[f.next - 1]! : f.next - 1));
  }
  return null;
}

export const tooDeepMessage = `the value is nested deeper than ${MAX_NESTING_DEPTH} levels of arrays and objects`;
