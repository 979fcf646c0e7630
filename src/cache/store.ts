/**
 * Where cached answers are kept: in the engine's memory (`memory-store.ts`, one node) or in Redis
 * (`redis-store.ts`, shared by every engine on it). Both index an entry by the tables its plan
 * read (table keys, `source \0 schema.name`), so that a write on one evicts it, and count
 * evictions per table: an answer fetched while one of its tables was written is not stored.
 */
export interface CachedAnswer {
  body: string;
  /** Milliseconds it has left. */
  leftMs: number;
}

export interface NewEntry {
  key: string;
  family: string;
  body: string;
  ttlMs: number;
  tables: readonly string[];
}

/** A miss's view of its tables' evictions, handed back to `set`. */
export type Generations = readonly unknown[];

export type Lookup = { hit: CachedAnswer } | { miss: Generations };

export interface ResponseStore {
  get(key: string, tables: readonly string[]): Promise<Lookup>;
  /** Stores the entry unless a table it read was evicted since `seen` was taken. */
  set(entry: NewEntry, seen: Generations): Promise<void>;
  /** A write on these tables: their entries go. */
  evictTables(tables: readonly string[]): Promise<void>;
  /** The entry of `key`, the entries of `family`, or every entry; how many went. */
  clear(what: { key?: string; family?: string }): Promise<number>;
  close(): Promise<void>;
}
