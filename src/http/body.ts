/** Reading a request body from uWebSockets.js with a size limit. */
import type { HttpResponse } from 'uWebSockets.js';

export class BodyTooLarge extends Error {}

/**
 * Collects the body. uWS reuses the chunk memory after the callback, so each chunk
 * is copied. Must be called synchronously in the handler, after `onAborted`.
 */
export function readBody(res: HttpResponse, limit: number): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    res.onData((chunk, isLast) => {
      if (failed) return;
      size += chunk.byteLength;
      if (size > limit) {
        failed = true;
        reject(new BodyTooLarge(`request body is larger than the limit of ${limit} bytes`));
        return;
      }
      chunks.push(Buffer.from(chunk.slice(0)));
      if (isLast) {
        const all = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
        resolve(new Uint8Array(all.buffer, all.byteOffset, all.byteLength));
      }
    });
  });
}
