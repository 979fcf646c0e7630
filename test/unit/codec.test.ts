import { describe, expect, it } from 'vitest';
import { decode, encode } from '../../src/protocol/codec.js';

describe('thread message codec', () => {
  it('round-trips messages of every size in any order (large ones make it let go of its buffers)', () => {
    const sizes = [10, 3 << 20, 5, 40 << 20, 100, 2 << 20, 0];
    const encoded = sizes.map((n, i) => encode({ i, text: 'é'.repeat(n), bytes: new Uint8Array(n % 1000) }));
    encoded.forEach((bytes, i) => {
      const m = decode<{ i: number; text: string; bytes: Uint8Array }>(bytes);
      expect(m.i).toBe(i);
      expect(m.text.length).toBe(sizes[i]);
      expect(m.bytes.byteLength).toBe(sizes[i]! % 1000);
    });
  });

  it('returns bytes that own their buffer (they are transferred to another thread)', () => {
    for (const n of [1, 2 << 20]) {
      const bytes = encode({ text: 'x'.repeat(n) });
      expect(bytes.byteOffset).toBe(0);
      expect(bytes.buffer.byteLength).toBe(bytes.byteLength);
    }
  });
});
