/**
 * Compiled plans by (role, operation name, query text), then by the values of the
 * variables that shaped the SQL. Least recently used entries go first when it is full. A
 * metadata change evicts only the plans that read what it changed: after
 * a permission change on one table, queries of other tables keep their plans.
 */
import type { MetadataChanges } from '../metadata/changes.js';
import type { Plan, ShapeVariable } from '../protocol/plan.js';

interface Entry {
  shape: ShapeVariable[];
  plans: Map<string, Plan>;
}

export class PlanCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly capacity: number) {}

  static key(role: string, operationName: string | null, query: string): string {
    return `${role}\u0000${operationName ?? ''}\u0000${query}`;
  }

  private static shapeKey(shape: ShapeVariable[], variables: Record<string, unknown>): string {
    if (shape.length === 0) return '';
    return JSON.stringify(shape.map((s) => (s.mode === 'value' ? (variables[s.name] ?? null) : variables[s.name] === null || variables[s.name] === undefined)));
  }

  get(key: string, variables: Record<string, unknown>): Plan | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    // Refresh recency.
    this.entries.delete(key);
    this.entries.set(key, e);
    return e.plans.get(PlanCache.shapeKey(e.shape, variables));
  }

  set(key: string, variables: Record<string, unknown>, plan: Plan): void {
    let e = this.entries.get(key);
    if (!e) {
      e = { shape: plan.shape, plans: new Map() };
      this.entries.set(key, e);
      if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
    } else if (JSON.stringify(e.shape) !== JSON.stringify(plan.shape)) {
      // Another value shaped different variables: key on all of them from now on.
      const names = new Map([...e.shape, ...plan.shape].map((s) => [s.name, s]));
      e = { shape: [...names.values()].sort((a, b) => (a.name < b.name ? -1 : 1)), plans: new Map() };
      this.entries.set(key, e);
    }
    if (e.plans.size >= 64) e.plans.delete(e.plans.keys().next().value!);
    e.plans.set(PlanCache.shapeKey(e.shape, variables), plan);
  }

  /**
   * What `/dev/plan_cache` shows: each cached request and its plans (one per shape of the variables
   * that shaped the SQL), least recently used first. `key`: the role (with `backend_only` for a
   * backend-only session), the operation name and the query, as `key` joined them.
   */
  describe(): { capacity: number; entries: unknown[] } {
    const entries = [...this.entries].map(([key, e]) => ({
      key: key.split('\u0000'),
      plans: [...e.plans.values()].map((p) => ({ operation: p.operation, parameterized_query_hash: p.queryHash, steps: p.steps.length })),
    }));
    return { capacity: this.capacity, entries };
  }

  /** Drops the plans that read something `changes` names. */
  evict(changes: MetadataChanges): void {
    if (changes.everything) return this.entries.clear();
    if (changes.sources.length === 0 && changes.tables.length === 0) return;
    const stale = staleness(changes);
    for (const [key, e] of this.entries) {
      const role = key.slice(0, key.indexOf('\u0000'));
      for (const [shape, plan] of e.plans) if (stale(plan, role)) e.plans.delete(shape);
      if (e.plans.size === 0) this.entries.delete(key);
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
