/**
 * The store in Redis (`SERVICE_GRAPHQL_REDIS_URL`), shared by every engine on it: an answer cached
 * by one is a hit on the others, and an eviction by one is seen by all. Layout (docs/operations.md
 * "Response cache"), under `service:cache:`:
 *   `e:<key>`         hash {b: body, f: family}, expiring with the entry's TTL
 *   `f:<family>`      set of the family's keys
 *   `t:<table>`       set of the keys of entries that read the table (`<source>:<schema>.<name>`)
 *   `g:<table>`       the table's eviction count (a miss reads it; the store is refused if it moved)
 * Each operation is one script (atomic). A failed command throws: the caller bypasses the cache.
 */
import type { Redis } from 'ioredis';
import type { RedisConnection } from '../redis/connection.js';
import type { Generations, Lookup, NewEntry, ResponseStore } from './store.js';

const PREFIX = 'service:cache:';
const entryKey = (key: string) => `${PREFIX}e:${key}`;
const familyKey = (family: string) => `${PREFIX}f:${family}`;
const tableName = (table: string) => table.replace('\u0000', ':');
const tableKey = (table: string) => `${PREFIX}t:${tableName(table)}`;
const generationKey = (table: string) => `${PREFIX}g:${tableName(table)}`;

/** KEYS: the entry, then the tables' generations. A hit: [body, ms left]; a miss: [false, generations...]. */
const GET = `
local b = redis.call('HGET', KEYS[1], 'b')
if b then return {b, redis.call('PTTL', KEYS[1])} end
local out = {false}
for i = 2, #KEYS do out[i] = redis.call('GET', KEYS[i]) or '0' end
return out`;

/**
 * KEYS: the entry, its family's set, then per table its set and its generation. ARGV: body, family,
 * TTL in ms, then each table's generation as the miss saw it. An index set lives as long as its
 * longest entry.
 */
const SET = `
local n = (#KEYS - 2) / 2
for i = 1, n do
  if (redis.call('GET', KEYS[2 + n + i]) or '0') ~= ARGV[3 + i] then return 0 end
end
local ttl = tonumber(ARGV[3])
redis.call('HSET', KEYS[1], 'b', ARGV[1], 'f', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ttl)
for i = 2, 2 + n do
  redis.call('SADD', KEYS[i], KEYS[1])
  if redis.call('PTTL', KEYS[i]) < ttl then redis.call('PEXPIRE', KEYS[i], ttl) end
end
return 1`;

/** KEYS: per table its set and its generation: its entries go, its generation moves. */
const EVICT = `
for i = 1, #KEYS, 2 do
  local keys = redis.call('SMEMBERS', KEYS[i])
  for _, k in ipairs(keys) do redis.call('DEL', k) end
  redis.call('DEL', KEYS[i])
  redis.call('INCR', KEYS[i + 1])
end
return 0`;

/** KEYS: a family's set: its entries go; how many there were. */
const CLEAR_FAMILY = `
local gone = 0
for _, k in ipairs(redis.call('SMEMBERS', KEYS[1])) do gone = gone + redis.call('DEL', k) end
redis.call('DEL', KEYS[1])
return gone`;

type Scripts = Redis & {
  cacheGet(...args: string[]): Promise<[string | null, ...(string | number)[]]>;
  cacheSet(...args: (string | number)[]): Promise<number>;
  cacheEvict(...args: string[]): Promise<number>;
  cacheClearFamily(key: string): Promise<number>;
};

export class RedisStore implements ResponseStore {
  private readonly redis: Scripts;

  constructor(private readonly connection: RedisConnection) {
    const client = connection.client;
    client.defineCommand('cacheGet', { lua: GET });
    client.defineCommand('cacheSet', { lua: SET });
    client.defineCommand('cacheEvict', { lua: EVICT });
    client.defineCommand('cacheClearFamily', { lua: CLEAR_FAMILY, numberOfKeys: 1 });
    this.redis = client as Scripts;
  }

  async get(key: string, tables: readonly string[]): Promise<Lookup> {
    const [body, ...rest] = await this.redis.cacheGet(String(1 + tables.length), entryKey(key), ...tables.map(generationKey));
    if (body !== null) return { hit: { body, leftMs: Number(rest[0]) } };
    return { miss: rest.map(String) };
  }

  async set(e: NewEntry, seen: Generations): Promise<void> {
    const keys = [entryKey(e.key), familyKey(e.family), ...e.tables.map(tableKey), ...e.tables.map(generationKey)];
    await this.redis.cacheSet(String(keys.length), ...keys, e.body, e.family, e.ttlMs, ...seen.map(String));
  }

  async evictTables(tables: readonly string[]): Promise<void> {
    if (tables.length === 0) return;
    const keys = tables.flatMap((t) => [tableKey(t), generationKey(t)]);
    await this.redis.cacheEvict(String(keys.length), ...keys);
  }

  async clear(what: { key?: string; family?: string }): Promise<number> {
    if (what.key !== undefined) return this.redis.del(entryKey(what.key));
    if (what.family !== undefined) return this.redis.cacheClearFamily(familyKey(what.family));
    // Everything but the generations (a miss in flight must still see the evictions it raced).
    let gone = 0;
    for (const kind of ['e', 'f', 't']) {
      const stream = this.redis.scanStream({ match: `${PREFIX}${kind}:*`, count: 500 });
      for await (const keys of stream as AsyncIterable<string[]>) {
        if (keys.length === 0) continue;
        const n = await this.redis.del(...keys);
        if (kind === 'e') gone += n;
      }
    }
    return gone;
  }

  close(): Promise<void> {
    return this.connection.close();
  }
}
