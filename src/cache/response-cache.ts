/**
 * The response cache of `@cached` queries (the well-known engine's, docs/operations.md "Response
 * cache"): an answer is looked up by its keys (`key.ts`) unless the query asks to `refresh`, else
 * fetched and stored for its TTL (capped by `SERVICE_GRAPHQL_CACHE_MAX_ENTRY_TTL`) when it has no
 * error and is not over `SERVICE_GRAPHQL_CACHE_MAX_ENTRY_SIZE`. Beyond the well-known engine, an
 * entry goes as soon as a table its plan read is written: by a mutation of this engine
 * (`evictTables`) or by anyone (the change capture live queries use, `table-changes.ts`). A store
 * that fails (Redis down) is bypassed: the request is answered from the database and counted
 * `unavailable`; evictions that failed are made again once the store answers.
 */
import type { Plan, PlanCache } from '../protocol/plan.js';
import { cacheKeys, type CacheKeys, type KeyedRequest } from './key.js';
import type { Lookup, ResponseStore } from './store.js';

export type CacheStatus = 'hit' | 'miss' | 'unavailable';

export interface CacheMeter {
  cacheRequest(status: CacheStatus): void;
}

export interface CacheLimits {
  maxEntryTtlSeconds: number;
  maxEntryBytes: number;
}

/** A cached query's `data` text and the response headers that tell of its entry. */
export interface CachedData {
  data: string;
  headers: [string, string][];
}

export class ResponseCache {
  /** Tables whose eviction failed (the store was down): evicted again before the next lookup that works. */
  private readonly failedEvictions = new Set<string>();

  constructor(
    private readonly store: ResponseStore,
    private readonly limits: CacheLimits,
    private readonly meter: CacheMeter | null,
    /** Writes on the sources of cached answers (`table-changes.ts`). */
    private readonly changes: { watch(sources: readonly string[]): void; close(): Promise<void> },
  ) {}

  /** The answer's `data`, cached or fetched by `fetch` (which fills `errors` with a remote's). */
  async data(plan: Plan & { cache: PlanCache }, req: KeyedRequest, fetch: (errors: unknown[]) => Promise<string>): Promise<CachedData & { errors: unknown[] }> {
    const keys = cacheKeys(plan, req);
    const tables = plan.reads.tables;
    this.changes.watch(plan.reads.sources);
    let lookup: Lookup | null = null;
    try {
      await this.retryEvictions();
      // A refresh fetches whatever is stored; what it fetches replaces it.
      if (plan.cache.refresh) await this.store.clear({ key: keys.key });
      lookup = await this.store.get(keys.key, tables);
    } catch {
      this.meter?.cacheRequest('unavailable');
    }
    if (lookup && 'hit' in lookup && !plan.cache.refresh) {
      this.meter?.cacheRequest('hit');
      return { data: lookup.hit.body, errors: [], headers: headers(keys, lookup.hit.leftMs) };
    }
    const errors: unknown[] = [];
    const data = await fetch(errors);
    if (!lookup) return { data, errors, headers: [] };
    this.meter?.cacheRequest('miss');
    const ttlMs = 1000 * Math.min(plan.cache.ttl, this.limits.maxEntryTtlSeconds);
    // Not stored: an answer with errors, one too big, or one a racing refresh stored meanwhile.
    if (errors.length > 0 || ttlMs === 0 || !('miss' in lookup) || Buffer.byteLength(data) > this.limits.maxEntryBytes) return { data, errors, headers: [] };
    const entry = { key: keys.key, family: keys.family, body: data, ttlMs, tables };
    const stored = await this.store.set(entry, lookup.miss).then(
      () => true,
      () => false,
    );
    return { data, errors, headers: stored ? headers(keys, ttlMs) : [] };
  }

  /** A write on these tables (a mutation that ran): their entries go, on every engine sharing the store. */
  async evictTables(tables: readonly string[]): Promise<void> {
    if (tables.length === 0) return;
    await this.store.evictTables(tables).catch(() => {
      for (const t of tables) this.failedEvictions.add(t);
    });
  }

  /** `POST /pro/cache/clear`: the entry of `key`, the entries of `family`, or all; how many went. */
  clear(what: { key?: string; family?: string }): Promise<number> {
    return this.store.clear(what);
  }

  async close(): Promise<void> {
    await this.changes.close();
    await this.store.close();
  }

  /** Makes the evictions that failed (the store was down). */
  async retryEvictions(): Promise<void> {
    if (this.failedEvictions.size === 0) return;
    const tables = [...this.failedEvictions];
    await this.store.evictTables(tables);
    for (const t of tables) this.failedEvictions.delete(t);
  }
}

const headers = (keys: CacheKeys, leftMs: number): [string, string][] => [
  ['Cache-Control', `max-age=${Math.ceil(leftMs / 1000)}`],
  ['X-Service-Query-Cache-Key', keys.key],
  ['X-Service-Query-Family-Cache-Key', keys.family],
];
