/**
 * The front's part of the graceful shutdown (docs/operations.md "Graceful shutdown"), once its
 * listening socket is closed: the HTTP requests in flight are answered (each answer closing its
 * connection), the WebSockets end their queries and mutations under way and close with 1001,
 * and new upgrades on connections kept alive are refused, all by `deadline`.
 */
import type { RequestsInFlight } from './in-flight.js';
import type { OpenWebSockets } from './websocket.js';

export interface FrontDrained {
  /** In flight when the drain began. */
  requests: number;
  websockets: number;
  /** Requests still unanswered at the deadline (cut when the process exits). */
  unanswered: number;
}

export async function drainFront(requests: RequestsInFlight, sockets: OpenWebSockets | undefined, deadline: number): Promise<FrontDrained> {
  requests.draining = true;
  const began = { requests: requests.size, websockets: sockets?.size ?? 0 };
  await Promise.all([requests.settled(deadline), sockets?.goAway(deadline)]);
  return { ...began, unanswered: requests.size };
}
