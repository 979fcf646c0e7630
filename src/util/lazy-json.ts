/**
 * `JSON.parse` of a request body whose long arrays of small elements (a document's 5,000 table
 * entries) stay text until read: each element is parsed when a decoder reads it, and its raw
 * objects are garbage once it is decoded. Parsed at once, a 40 MiB document's raw objects all
 * lived through its decoding: the young generation copied them twice and marking walked them
 * (the metadata actor's parse took 0.65 s of the replace, and the collector's threads as much
 * again on the other core).
 */
import { randomBytes } from 'node:crypto';
import { longArrays, type LongArrayText } from './json-scan.js';

/** An array this long, of elements each shorter, is parsed element by element. */
const LONG_ARRAY_BYTES = 1 << 20;

/**
 * The value of a UTF-8 JSON text, or null when it is not valid JSON or nested deeper than
 * `maxDepth` (the caller parses it whole for the error). Elements of its long arrays are parsed
 * each time they are read (an array of getters: `Array.isArray`, `map`, iteration and
 * `JSON.stringify` see their values), so a reader that keeps them keeps its own copy.
 */
export function parseJsonLazily(bytes: Buffer, maxDepth: number): { value: unknown } | null {
  const long = longArrays(bytes, maxDepth, LONG_ARRAY_BYTES);
  if (long === null) return null;
  if (long.length === 0) return { value: JSON.parse(bytes.toString('utf8')) };
  // Each long array becomes a string no text can hold by chance (a fresh random name), put back as its array after parsing.
  const marker = `\u0000long array ${randomBytes(12).toString('hex')} `;
  const parts: Buffer[] = [];
  let at = 0;
  long.forEach((a, k) => {
    parts.push(bytes.subarray(at, a.start), Buffer.from(JSON.stringify(marker + k)));
    at = a.end;
  });
  parts.push(bytes.subarray(at));
  const arrays = long.map((a) => elementsParsedWhenRead(bytes, a));
  const put = (v: unknown): unknown => (typeof v === 'string' && v.startsWith(marker) ? arrays[Number(v.slice(marker.length))] : v);
  return { value: withArrays(JSON.parse(Buffer.concat(parts).toString('utf8')), put) };
}

const readWhenRead = new WeakSet<unknown[]>();

/**
 * Whether `v` is a long array whose elements are parsed when read. One that a command keeps as
 * it is (a raw part of a document) is made a plain array before it is stored (util/draft.ts):
 * kept, it would hold the whole body and give new objects at each read.
 */
export const isParsedWhenRead = (v: unknown): v is unknown[] => Array.isArray(v) && readWhenRead.has(v);

function elementsParsedWhenRead(bytes: Buffer, a: LongArrayText): unknown[] {
  const out: unknown[] = new Array(a.elements.length / 2);
  readWhenRead.add(out);
  for (let i = 0; i < out.length; i++) {
    const start = a.elements[2 * i]!;
    const end = a.elements[2 * i + 1]!;
    Object.defineProperty(out, i, {
      get: () => JSON.parse(bytes.toString('utf8', start, end)),
      // A reader that writes an element keeps what it wrote.
      set: (value: unknown) => Object.defineProperty(out, i, { value, writable: true, enumerable: true, configurable: true }),
      enumerable: true,
      configurable: true,
    });
  }
  return out;
}

/** `v` with `put` applied to every value in it (the parsed text without its long arrays: small). Written only where `put` changed a value (an own `__proto__` key stays one). */
function withArrays(v: unknown, put: (v: unknown) => unknown): unknown {
  if (typeof v !== 'object' || v === null) return put(v);
  const o = v as Record<string, unknown>;
  for (const k of Object.keys(o)) {
    const w = withArrays(o[k], put);
    if (w !== o[k]) Object.defineProperty(o, k, { value: w, writable: true, enumerable: true, configurable: true });
  }
  return v;
}
