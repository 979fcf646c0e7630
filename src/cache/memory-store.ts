/**
 * The in-process store (the default: one node, nothing to install). Entries in least-recently-used
 * order (a `Map`'s insertion order, an entry read moved to its end); past `maxBytes` in all, the
 * least recently used go. Expired entries go when read or pushed out.
 */
import type { CachedAnswer, Generations, Lookup, NewEntry, ResponseStore } from './store.js';

interface Entry {
  family: string;
  body: string;
  expiresAt: number;
  tables: readonly string[];
  bytes: number;
}

export class MemoryStore implements ResponseStore {
  private readonly entries = new Map<string, Entry>();
  private readonly byTable = new Map<string, Set<string>>();
  private readonly generations = new Map<string, number>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  async get(key: string, tables: readonly string[]): Promise<Lookup> {
    const e = this.entries.get(key);
    const now = Date.now();
    if (e && e.expiresAt > now) {
      this.entries.delete(key);
      this.entries.set(key, e);
      const hit: CachedAnswer = { body: e.body, leftMs: e.expiresAt - now };
      return { hit };
    }
    if (e) this.remove(key);
    return { miss: tables.map((t) => this.generations.get(t) ?? 0) };
  }

  async set(entry: NewEntry, seen: Generations): Promise<void> {
    if (entry.tables.some((t, i) => (this.generations.get(t) ?? 0) !== seen[i])) return;
    const bytes = Buffer.byteLength(entry.body);
    if (bytes > this.maxBytes) return;
    this.remove(entry.key);
    this.entries.set(entry.key, { family: entry.family, body: entry.body, expiresAt: Date.now() + entry.ttlMs, tables: entry.tables, bytes });
    this.bytes += bytes;
    for (const t of entry.tables) {
      let keys = this.byTable.get(t);
      if (!keys) this.byTable.set(t, (keys = new Set()));
      keys.add(entry.key);
    }
    for (const oldest of this.entries.keys()) {
      if (this.bytes <= this.maxBytes) break;
      this.remove(oldest);
    }
  }

  async evictTables(tables: readonly string[]): Promise<void> {
    for (const t of tables) {
      this.generations.set(t, (this.generations.get(t) ?? 0) + 1);
      for (const key of this.byTable.get(t) ?? []) this.remove(key);
    }
  }

  async clear(what: { key?: string; family?: string }): Promise<number> {
    const keys = what.key !== undefined ? [what.key] : [...this.entries].filter(([, e]) => what.family === undefined || e.family === what.family).map(([k]) => k);
    return keys.filter((k) => this.remove(k)).length;
  }

  async close(): Promise<void> {}

  private remove(key: string): boolean {
    const e = this.entries.get(key);
    if (!e) return false;
    this.entries.delete(key);
    this.bytes -= e.bytes;
    for (const t of e.tables) {
      const keys = this.byTable.get(t);
      keys?.delete(key);
      if (keys?.size === 0) this.byTable.delete(t);
    }
    return true;
  }
}
