/**
 * The front thread's plan cache: plans by query text, who asks (role, backend-only, operation
 * name) and the variables that shaped the SQL; the least recently used go first when it is full;
 * a metadata change evicts only the plans that read what it changed.
 */
import { describe, expect, it } from 'vitest';
import { PlanCache } from '../../src/graphql/plan-cache.js';
import type { Plan, ShapeVariable } from '../../src/protocol/plan.js';

const plan = (tables: string[], shape: ShapeVariable[] = [], queryHash = 'h'): Plan => ({
  operation: 'query',
  steps: [],
  variables: [],
  shape,
  sessionVariables: [],
  queryHash,
  size: { depth: 1, nodes: 1 },
  reads: { everything: false, sources: [], tables },
});

const keys = (cache: PlanCache) => (cache.describe().entries as { key: string[] }[]).map((e) => e.key);

describe('PlanCache', () => {
  it('keeps a plan per query text, role, backend-only session and operation name', () => {
    const cache = new PlanCache(10);
    const who = PlanCache.who('user', false, null);
    const p = plan(['default\u0000public.a']);
    cache.set('{ a { id } }', who, {}, p);
    expect(cache.get('{ a { id } }', who, {})).toBe(p);
    expect(cache.get('{ a { id } }', PlanCache.who('other', false, null), {})).toBeUndefined();
    expect(cache.get('{ a { id } }', PlanCache.who('user', true, null), {})).toBeUndefined();
    expect(cache.get('{ a { id } }', PlanCache.who('user', false, 'A'), {})).toBeUndefined();
    expect(cache.get('{ a { name } }', who, {})).toBeUndefined();
  });

  it('keys on the values of the variables that shaped the SQL', () => {
    const cache = new PlanCache(10);
    const who = PlanCache.who('admin', false, null);
    const shape: ShapeVariable[] = [{ name: 'order', mode: 'value' }];
    const asc = plan([], shape, 'asc');
    const desc = plan([], shape, 'desc');
    cache.set('q', who, { order: 'asc' }, asc);
    cache.set('q', who, { order: 'desc' }, desc);
    expect(cache.get('q', who, { order: 'asc', other: 1 })).toBe(asc);
    expect(cache.get('q', who, { order: 'desc' })).toBe(desc);
    expect(cache.get('q', who, { order: 'random' })).toBeUndefined();
  });

  it('keys on whether a variable is null where only that shaped the SQL, whatever its value otherwise', () => {
    const cache = new PlanCache(10);
    const who = PlanCache.who('admin', false, null);
    const shape: ShapeVariable[] = [{ name: 'ids', mode: 'nullness' }, { name: 'limit', mode: 'value' }];
    const some = plan([], shape, 'some');
    const none = plan([], shape, 'none');
    cache.set('q', who, { ids: [1, 2], limit: 5 }, some);
    cache.set('q', who, { ids: null, limit: 5 }, none);
    expect(cache.get('q', who, { ids: [3], limit: 5 })).toBe(some);
    expect(cache.get('q', who, { limit: 5 })).toBe(none);
    expect(cache.get('q', who, { ids: [3], limit: 6 })).toBeUndefined();
    expect(cache.get('q', who, { ids: [3], limit: '5' })).toBeUndefined();
  });

  it('lists its entries least recently used first, as `/dev/plan_cache` shows them', () => {
    const cache = new PlanCache(10);
    cache.set('q1', PlanCache.who('user', false, 'One'), {}, plan([]));
    cache.set('q2', PlanCache.who('user', true, null), {}, plan([]));
    cache.set('q3', PlanCache.who('admin', true, 'Three'), {}, plan([]));
    cache.get('q1', PlanCache.who('user', false, 'One'), {});
    expect(keys(cache)).toEqual([
      ['user', 'backend_only', '', 'q2'],
      ['admin', 'backend_only', 'Three', 'q3'],
      ['user', 'One', 'q1'],
    ]);
  });

  it('drops the least recently used entries when it is full', () => {
    const cache = new PlanCache(3);
    const who = PlanCache.who('admin', false, null);
    for (const q of ['q1', 'q2', 'q3']) cache.set(q, who, {}, plan([]));
    cache.get('q1', who, {});
    cache.set('q4', who, {}, plan([]));
    expect(keys(cache)).toEqual([
      ['admin', '', 'q3'],
      ['admin', '', 'q1'],
      ['admin', '', 'q4'],
    ]);
  });

  it("evicts the plans that read a changed table, for the roles whose permissions changed", () => {
    const cache = new PlanCache(10);
    const a = 'default\u0000public.a';
    const b = 'default\u0000public.b';
    cache.set('qa', PlanCache.who('user', false, null), {}, plan([a]));
    cache.set('qa', PlanCache.who('editor', false, null), {}, plan([a]));
    cache.set('qb', PlanCache.who('user', false, null), {}, plan([b]));
    cache.evict({ everything: false, sources: [], tables: [{ key: a, roles: ['user'] }] });
    expect(keys(cache)).toEqual([
      ['editor', '', 'qa'],
      ['user', '', 'qb'],
    ]);
    cache.evict({ everything: true, sources: [], tables: [] });
    expect(keys(cache)).toEqual([]);
  });
});
