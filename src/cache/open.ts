/**
 * The response cache as configured: in the engine's memory, or in Redis when
 * `SERVICE_GRAPHQL_REDIS_URL` is set (its connection fails fast while Redis is down: the cache is
 * bypassed, `redis/connection.ts` logs the outage once, and it reconnects by itself).
 */
import type { RedisEndpoint } from '../config/redis.js';
import type { Snapshots, SourcesView } from '../protocol/snapshot.js';
import { openRedis } from '../redis/connection.js';
import { MemoryStore } from './memory-store.js';
import { RedisStore } from './redis-store.js';
import { ResponseCache, type CacheLimits, type CacheMeter } from './response-cache.js';
import { TableChanges } from './table-changes.js';

export function openResponseCache(settings: CacheLimits & { maxBytes: number; redis: RedisEndpoint | undefined }, snapshots: Snapshots<SourcesView>, meter: CacheMeter | null): ResponseCache {
  const redis = settings.redis && openRedis(settings.redis, 'response cache');
  const store = redis ? new RedisStore(redis) : new MemoryStore(settings.maxBytes);
  const cache: ResponseCache = new ResponseCache(store, settings, meter, new TableChanges(snapshots, () => cache));
  // Other engines read the entries this one failed to evict: evicted as soon as Redis is back.
  redis?.client.on('ready', () => void cache.retryEvictions().catch(() => {}));
  return cache;
}
