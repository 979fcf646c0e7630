/**
 * Compiled plans by query text, then by who asks (role and operation name), then by the values
 * of the variables that shaped the SQL. Least recently used entries go first when it is full. A
 * metadata change evicts only the plans that read what it changed: after a permission change on
 * one table, queries of other tables keep their plans.
 *
 * A hit builds no key from the query text: the request's text is looked up as it came (V8 keeps
 * a string's hash once computed), the role and operation name in a small map under it, and
 * recency is a counter on the entry, not a Map deletion and insertion of the whole key.
 */
import type { MetadataChanges } from '../metadata/changes.js';
import type { Plan, ShapeVariable } from '../protocol/plan.js';

interface Entry {
  shape: ShapeVariable[];
  plans: Map<string, Plan>;
  /** The cache's clock when it was last read or written: the smallest goes first. */
  used: number;
}

/** Past the capacity this share of it goes at once, so that a full cache scans for the oldest once in a while, not on every miss. */
const EVICTED_SHARE = 1 / 16;

export class PlanCache {
  /** Query text -> who (`PlanCache.who`) -> entry. */
  private readonly entries = new Map<string, Map<string, Entry>>();
  private size = 0;
  private clock = 0;

  constructor(private readonly capacity: number) {}

  /** Who a plan is for: the role (a backend-only session's apart) and the operation name. */
  static who(role: string, backendOnly: boolean, operationName: string | null): string {
    const as = backendOnly ? `${role}\u0000backend_only` : role;
    return operationName === null ? as : `${as}\u0000\u0000${operationName}`;
  }

  /**
   * The values that shaped the SQL, as one text: a whole value as JSON, a null-ness as one
   * character (never the start of a JSON text), one per line; a shape of null-nesses alone
   * builds no JSON at all.
   */
  private static shapeKey(shape: ShapeVariable[], variables: Record<string, unknown>): string {
    let key = '';
    for (const s of shape) {
      const v = variables[s.name];
      key += s.mode === 'value' ? `${JSON.stringify(v ?? null)}\n` : v === null || v === undefined ? '-\n' : '+\n';
    }
    return key;
  }

  get(query: string, who: string, variables: Record<string, unknown>): Plan | undefined {
    const e = this.entries.get(query)?.get(who);
    if (!e) return undefined;
    e.used = ++this.clock;
    return e.plans.get(PlanCache.shapeKey(e.shape, variables));
  }

  set(query: string, who: string, variables: Record<string, unknown>, plan: Plan): void {
    let byWho = this.entries.get(query);
    if (!byWho) this.entries.set(query, (byWho = new Map()));
    let e = byWho.get(who);
    if (!e) {
      e = { shape: plan.shape, plans: new Map(), used: ++this.clock };
      byWho.set(who, e);
      if (++this.size > this.capacity) this.evictOldest();
    } else if (JSON.stringify(e.shape) !== JSON.stringify(plan.shape)) {
      // Another value shaped different variables: key on all of them from now on.
      const names = new Map([...e.shape, ...plan.shape].map((s) => [s.name, s]));
      e = { shape: [...names.values()].sort((a, b) => (a.name < b.name ? -1 : 1)), plans: new Map(), used: 0 };
      byWho.set(who, e);
    }
    e.used = ++this.clock;
    if (e.plans.size >= 64) e.plans.delete(e.plans.keys().next().value!);
    e.plans.set(PlanCache.shapeKey(e.shape, variables), plan);
  }

  /** Every entry with its query and who it is for, least recently used first. */
  private listed(): { query: string; who: string; entry: Entry }[] {
    const all: { query: string; who: string; entry: Entry }[] = [];
    for (const [query, byWho] of this.entries) for (const [who, entry] of byWho) all.push({ query, who, entry });
    return all.sort((a, b) => a.entry.used - b.entry.used);
  }

  private remove(query: string, who: string): void {
    const byWho = this.entries.get(query);
    if (!byWho?.delete(who)) return;
    this.size--;
    if (byWho.size === 0) this.entries.delete(query);
  }

  private evictOldest(): void {
    const excess = this.size - this.capacity + Math.max(0, Math.floor(this.capacity * EVICTED_SHARE) - 1);
    for (const { query, who } of this.listed().slice(0, excess)) this.remove(query, who);
  }

  /**
   * What `/dev/plan_cache` shows: each cached request and its plans (one per shape of the variables
   * that shaped the SQL), least recently used first. `key`: the role (with `backend_only` for a
   * backend-only session), the operation name and the query.
   */
  describe(): { capacity: number; entries: unknown[] } {
    const entries = this.listed().map(({ query, who, entry }) => {
      const [as, operationName] = who.split('\u0000\u0000');
      return {
        key: [...as!.split('\u0000'), operationName ?? '', query],
        plans: [...entry.plans.values()].map((p) => ({ operation: p.operation, parameterized_query_hash: p.queryHash, steps: p.steps.length })),
      };
    });
    return { capacity: this.capacity, entries };
  }

  /** Drops the plans that read something `changes` names. */
  evict(changes: MetadataChanges): void {
    if (changes.everything) {
      this.entries.clear();
      this.size = 0;
      return;
    }
    if (changes.sources.length === 0 && changes.tables.length === 0) return;
    const stale = staleness(changes);
    for (const [query, byWho] of this.entries) {
      for (const [who, e] of byWho) {
        const role = who.split('\u0000', 1)[0]!;
        for (const [shape, plan] of e.plans) if (stale(plan, role)) e.plans.delete(shape);
        if (e.plans.size === 0) this.remove(query, who);
      }
    }
  }
}

/** Whether a plan of a role read something `changes` names (a table: for that role). */
export function staleness(changes: MetadataChanges): (plan: Plan, role: string) => boolean {
  if (changes.everything) return () => true;
  const sources = new Set(changes.sources);
  const tables = new Map(changes.tables.map((t) => [t.key, t.roles && new Set(t.roles)]));
  const tableStale = (key: string, role: string) => {
    const roles = tables.get(key);
    return roles !== undefined && (roles === null || roles.has(role));
  };
  return (p, role) => p.reads.everything || p.reads.sources.some((s) => sources.has(s)) || p.reads.tables.some((t) => tableStale(t, role));
}
