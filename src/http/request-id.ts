/**
 * A request's id, as the well-known engine's: the client's `x-request-id` when it sends one, else a
 * new UUID; echoed in the response's `x-request-id` and carried by every log line of the request.
 */
import { randomUUID } from 'node:crypto';

export const REQUEST_ID_HEADER = 'x-request-id';

/** An id longer than this is not the client's correlation id but noise: a new one is made. */
const MAX_CLIENT_ID = 256;

/** `given`: the request's `x-request-id` header ('' when absent). */
export function requestId(given: string): string {
  return given !== '' && given.length <= MAX_CLIENT_ID ? given : randomUUID();
}
