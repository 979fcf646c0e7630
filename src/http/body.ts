/** Reading a request body from uWebSockets.js with a size limit. */
import type { HttpResponse } from 'uWebSockets.js';

export class BodyTooLarge extends Error {}

/**
 * Collects the body. uWS reuses the chunk memory after the callback, so each chunk is copied:
 * into one buffer of the declared `Content-Length` when there is one (a 40 MiB
 * replace_metadata arrives in hundreds of chunks; a new buffer per chunk and a concatenation
 * at the end cost the front thread 0.45 s), else into a buffer per chunk. Must be called
 * synchronously in the handler, after `onAborted`; `contentLength` is the header's value.
 */
export function readBody(res: HttpResponse, limit: number, contentLength = ''): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const declared = /^\d+$/.test(contentLength) ? Number(contentLength) : -1;
    // Not zero-filled (every byte is written before it is read), and a small one from Node's pool: no allocation of its own per request.
    let whole: Uint8Array | null = declared > 0 && declared <= limit ? Buffer.allocUnsafe(declared) : null;
    const chunks: Uint8Array[] = [];
    let size = 0;
    let failed = false;
    res.onData((chunk, isLast) => {
      if (failed) return;
      const at = size;
      size += chunk.byteLength;
      if (size > limit) {
        failed = true;
        reject(new BodyTooLarge(`request body is larger than the limit of ${limit} bytes`));
        return;
      }
      if (whole && size <= whole.length) whole.set(new Uint8Array(chunk), at);
      else {
        // More than declared: what came so far becomes the first chunk.
        if (whole) chunks.push(whole.subarray(0, at));
        whole = null;
        chunks.push(new Uint8Array(chunk.slice(0)));
      }
      if (!isLast) return;
      if (whole) resolve(size === whole.length ? whole : whole.subarray(0, size));
      else if (chunks.length === 1) resolve(chunks[0]!);
      else {
        const all = new Uint8Array(size);
        let offset = 0;
        for (const c of chunks) {
          all.set(c, offset);
          offset += c.byteLength;
        }
        resolve(all);
      }
    });
  });
}
