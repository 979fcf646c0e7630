/**
 * A bounded map whose entries expire: the least recently used entry goes first when full,
 * so a flood of distinct credentials cannot grow memory without limit.
 */
export class ExpiringCache<V> {
  // A Map iterates in insertion order; re-inserting on read keeps the oldest use first.
  private readonly entries = new Map<string, { value: V; expiresAt: number }>();

  constructor(private readonly capacity: number) {}

  get(key: string, now: number): { value: V; expiresAt: number } | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.expiresAt <= now) return undefined;
    this.entries.set(key, entry);
    return entry;
  }

  set(key: string, value: V, expiresAt: number): void {
    this.entries.delete(key);
    if (this.entries.size >= this.capacity) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, { value, expiresAt });
  }
}
