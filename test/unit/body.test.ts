/**
 * Reading a request body as uWebSockets.js hands it over: in chunks whose memory is reused after
 * each callback (so each is copied), into one buffer of the declared length, or chunk by chunk
 * when the length is not declared or not kept to; refused past the limit.
 */
import type { HttpResponse } from 'uWebSockets.js';
import { describe, expect, it } from 'vitest';
import { BodyTooLarge, readBody } from '../../src/http/body.js';

/** A response whose `onData` is fed `chunks`, each chunk's memory overwritten after its callback as uWS does. */
function feeding(chunks: string[]): HttpResponse {
  return {
    onData(handler: (chunk: ArrayBuffer, isLast: boolean) => void) {
      chunks.forEach((text, i) => {
        const memory = new Uint8Array(Buffer.from(text)).buffer;
        handler(memory, i === chunks.length - 1);
        new Uint8Array(memory).fill(0x21);
      });
    },
  } as unknown as HttpResponse;
}

const text = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('utf8');

describe('readBody', () => {
  it('reads a body of the declared length, whatever its chunks', async () => {
    expect(text(await readBody(feeding(['{"query":', '"{ a }"}']), 1000, '17'))).toBe('{"query":"{ a }"}');
  });

  it('reads a body without a declared length, or one that differs from it', async () => {
    expect(text(await readBody(feeding(['ab', 'cd']), 1000, ''))).toBe('abcd');
    expect(text(await readBody(feeding(['ab', 'cd']), 1000, '2'))).toBe('abcd');
    expect(text(await readBody(feeding(['ab', 'cd']), 1000, '10'))).toBe('abcd');
  });

  it('refuses a body past the limit', async () => {
    await expect(readBody(feeding(['abc', 'def']), 5, '6')).rejects.toBeInstanceOf(BodyTooLarge);
    await expect(readBody(feeding(['abc', 'def']), 5, '')).rejects.toThrow('request body is larger than the limit of 5 bytes');
  });
});
