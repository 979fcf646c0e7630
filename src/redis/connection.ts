/**
 * One connection to a shared store (config/redis.ts), for the thread that opens it. Commands
 * never wait for a connection that is down (no offline queue, no retry of a command): the
 * caller treats a failed command as "store unreachable" and falls back (the cache is bypassed,
 * rate limits count on this node), while the client reconnects in the background. Each change
 * between reachable and unreachable is logged once, with the URL's password left out.
 */
import { Redis } from 'ioredis';
import type { RedisEndpoint } from '../config/redis.js';
import { log } from '../log.js';

/** Reconnection attempts back off up to this delay. */
const MAX_RECONNECT_DELAY_MS = 2_000;

export interface RedisConnection {
  readonly client: Redis;
  /** Whether the last connection attempt succeeded and the connection is up. */
  readonly reachable: boolean;
  close(): Promise<void>;
}

/** `purpose` names the store in log lines ("response cache", "rate limits"). */
export function openRedis(endpoint: RedisEndpoint, purpose: string): RedisConnection {
  const client = new Redis(endpoint.url, {
    connectTimeout: endpoint.connectTimeoutMs,
    // A server that stops answering (frozen, or a network that drops packets) fails commands after
    // the same delay, instead of holding every request that waits on it.
    commandTimeout: endpoint.connectTimeoutMs,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: (attempt) => Math.min(attempt * 200, MAX_RECONNECT_DELAY_MS),
    ...(endpoint.tls ? { tls: endpoint.tls } : {}),
  });
  const where = withoutPassword(endpoint.url);
  let reachable = false;
  let reported: boolean | undefined;
  const report = (up: boolean, error?: string) => {
    reachable = up;
    if (reported === up) return;
    reported = up;
    if (up) log.info(`the ${purpose} store is reachable`, { redis: where });
    else log.warn(`the ${purpose} store is unreachable: falling back until it is back`, { redis: where, error });
  };
  client.on('ready', () => report(true));
  client.on('error', (e: Error) => report(false, e.message));
  // A connection lost and made again before any attempt failed raises no error: without this, its
  // loss went unreported and `reachable` stayed true while it was down.
  client.on('close', () => report(false, 'connection closed'));
  client.on('end', () => report(false, 'connection closed'));
  return {
    client,
    get reachable() {
      return reachable;
    },
    close: async () => {
      reported = false; // a closing connection is not news
      await client.quit().catch(() => client.disconnect());
    },
  };
}

function withoutPassword(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'redis';
  }
}
