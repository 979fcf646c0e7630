/**
 * The response cache's two stores keep one contract (cache/store.ts), checked on each: the Redis
 * store against a real Redis server, the in-process one in memory. An answer fetched while one of
 * its tables was evicted is not stored; an eviction takes every entry that read the table; a family
 * is cleared whole; clearing everything leaves nothing.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { openRedis } from '../../src/redis/connection.js';
import { MemoryStore } from '../../src/cache/memory-store.js';
import { RedisStore } from '../../src/cache/redis-store.js';
import type { ResponseStore } from '../../src/cache/store.js';
import { startRedis } from '../support/redis.js';

const T1 = 'default\u0000public.t1';
const T2 = 'default\u0000public.t2';
const entry = (key: string, family: string, tables: string[]) => ({ key, family, body: `{"k":"${key}"}`, ttlMs: 10_000, tables });

async function missOf(store: ResponseStore, key: string, tables: string[]) {
  const l = await store.get(key, tables);
  if (!('miss' in l)) throw new Error(`${key} is cached`);
  return l.miss;
}

describe('response stores', async () => {
  const server = await startRedis();
  const connection = openRedis({ url: server.url, tls: undefined, connectTimeoutMs: 1_000 }, 'test');
  const end = Date.now() + 5_000;
  while (!connection.reachable && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
  afterAll(async () => {
    await connection.close();
    await server.stop();
  });

  for (const [name, make] of [
    ['in memory', () => new MemoryStore(1 << 20)],
    ['in Redis', () => new RedisStore({ ...connection, close: async () => {} })],
  ] as const) {
    it(`${name}: stores, evicts by table, refuses an answer that raced an eviction, clears by family and all`, async () => {
      const store: ResponseStore = make();
      await store.clear({});
      await store.set(entry('a', 'f1', [T1]), await missOf(store, 'a', [T1]));
      await store.set(entry('b', 'f1', [T1, T2]), await missOf(store, 'b', [T1, T2]));
      await store.set(entry('c', 'f2', [T2]), await missOf(store, 'c', [T2]));
      const hit = await store.get('a', [T1]);
      expect('hit' in hit && hit.hit.body).toBe('{"k":"a"}');
      expect('hit' in hit && hit.hit.leftMs).toBeGreaterThan(9_000);

      await store.evictTables([T1]);
      expect('miss' in (await store.get('a', [T1]))).toBe(true);
      expect('miss' in (await store.get('b', [T1, T2]))).toBe(true);
      expect('hit' in (await store.get('c', [T2]))).toBe(true);

      // Fetched before an eviction of its table, stored after: refused.
      const seen = await missOf(store, 'a', [T1]);
      await store.evictTables([T1]);
      await store.set(entry('a', 'f1', [T1]), seen);
      expect('miss' in (await store.get('a', [T1]))).toBe(true);

      await store.set(entry('d', 'f2', [T1]), await missOf(store, 'd', [T1]));
      expect(await store.clear({ family: 'f2' })).toBe(2);
      expect('miss' in (await store.get('c', [T2]))).toBe(true);
      await store.set(entry('e', 'f3', [T2]), await missOf(store, 'e', [T2]));
      expect(await store.clear({ key: 'e' })).toBe(1);
      await store.set(entry('e', 'f3', [T2]), await missOf(store, 'e', [T2]));
      expect(await store.clear({})).toBe(1);
      expect('miss' in (await store.get('e', [T2]))).toBe(true);
    });
  }
});
