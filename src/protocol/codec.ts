/** msgpack framing for every message between threads. */
import { Packr } from 'msgpackr';

// Records off: our messages are plain data with varying shapes; structured records
// would pin shapes across threads that each keep their own record table.
const packr = new Packr({ useRecords: false, moreTypes: true });

/**
 * msgpackr keeps, per thread, the buffer it packed the last message into (grown to fit the
 * largest one yet, up to twice its size) and a view of the last message it read: after a
 * 36 MiB export_metadata or replace_metadata at 5,000 tables that was 75 to 150 MiB held for
 * nothing in each thread the message crossed. Past this size both are let go.
 */
const KEPT_BYTES = 1 << 20;
/** msgpack's nil: what is read to replace msgpackr's view of a large message. */
const NIL = new Uint8Array([0xc0]);

/** Encodes into a fresh buffer that can be transferred (not a view into a shared pool). */
export function encode(value: unknown): Uint8Array {
  const view = packr.pack(value);
  const out = new Uint8Array(view.byteLength);
  out.set(view);
  if (view.buffer.byteLength > KEPT_BYTES) packr.useBuffer(Buffer.allocUnsafeSlow(8192));
  return out;
}

export function decode<T>(bytes: Uint8Array): T {
  const value = packr.unpack(bytes) as T;
  if (bytes.byteLength > KEPT_BYTES) packr.unpack(NIL);
  return value;
}
