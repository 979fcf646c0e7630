/** msgpack framing for every message between threads. */
import { Packr } from 'msgpackr';

// Records off: our messages are plain data with varying shapes; structured records
// would pin shapes across threads that each keep their own record table.
const packr = new Packr({ useRecords: false, moreTypes: true });

/** Encodes into a fresh buffer that can be transferred (not a view into a shared pool). */
export function encode(value: unknown): Uint8Array {
  const view = packr.pack(value);
  const out = new Uint8Array(view.byteLength);
  out.set(view);
  return out;
}

export function decode<T>(bytes: Uint8Array): T {
  return packr.unpack(bytes) as T;
}
