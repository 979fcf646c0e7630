import { describe, expect, it } from 'vitest';
import { changedKeys, changedKeysSince, current, deepFreeze, DraftSession, isDraft, produce, unchanged } from '../../src/util/draft.js';
import { changedPlaces, samePicks } from '../../src/util/same-picks.js';

interface Doc {
  version?: number;
  sources: { name: string; tables: { table: { name: string }; perms?: { role: string }[]; extra?: boolean }[] }[];
}

const base = () =>
  deepFreeze<Doc>({
    version: 3,
    sources: [
      { name: 'a', tables: [{ table: { name: 't1' }, perms: [{ role: 'r1' }] }, { table: { name: 't2' }, perms: [] }] },
      { name: 'b', tables: [{ table: { name: 't3' } }] },
    ],
  });

describe('copy-on-write drafts', () => {
  it('shares everything a change does not touch, and copies the path to it', () => {
    const b = base();
    const next = produce(b, (d) => {
      d.sources[0]!.tables[0]!.perms!.push({ role: 'r2' });
    });
    expect(next.sources[0]!.tables[0]!.perms).toEqual([{ role: 'r1' }, { role: 'r2' }]);
    expect(b.sources[0]!.tables[0]!.perms).toEqual([{ role: 'r1' }]);
    expect(next).not.toBe(b);
    expect(next.sources[1]).toBe(b.sources[1]);
    expect(next.sources[0]!.tables[1]).toBe(b.sources[0]!.tables[1]);
    expect(next.sources[0]!.tables[0]!.table).toBe(b.sources[0]!.tables[0]!.table);
    expect(Object.isFrozen(next.sources[0]!.tables[0]!.perms)).toBe(true);
  });

  it('returns the base itself when nothing changed, even after reads', () => {
    const b = base();
    const next = produce(b, (d) => {
      void d.sources.find((s) => s.name === 'b')!.tables.map((t) => ({ ...t }));
      d.sources[0]!.name = 'a';
    });
    expect(next).toBe(b);
  });

  it('finalizes drafts placed inside new objects (filter, spread, moves)', () => {
    const b = base();
    const next = produce(b, (d) => {
      const s = d.sources[0]!;
      s.tables = s.tables.filter((t) => t.table.name !== 't1');
      d.sources[1]!.tables.push({ ...s.tables[0]!, extra: true });
      delete d.version;
    });
    expect(next).toEqual({
      sources: [
        { name: 'a', tables: [{ table: { name: 't2' }, perms: [] }] },
        { name: 'b', tables: [{ table: { name: 't3' } }, { table: { name: 't2' }, perms: [], extra: true }] },
      ],
    });
    expect(isDraft(next.sources[1]!.tables[1]!.table)).toBe(false);
    expect(next.sources[0]!.tables[0]).toBe(b.sources[0]!.tables[1]);
    expect(JSON.stringify(next)).toBe(JSON.stringify(next));
  });

  it('works with array methods that move elements (splice, sort, reverse)', () => {
    const b = deepFreeze({ items: [{ n: 3 }, { n: 1 }, { n: 2 }] });
    const next = produce(b, (d) => {
      d.items.splice(0, 1);
      d.items[0]!.n = 10;
      d.items.sort((x, y) => y.n - x.n);
    });
    expect(next.items).toEqual([{ n: 10 }, { n: 2 }]);
    expect(b.items).toEqual([{ n: 3 }, { n: 1 }, { n: 2 }]);
    expect(next.items[1]).toBe(b.items[2]);
  });

  it('looks like plain data to readers: Array.isArray, keys, JSON, spread', () => {
    const b = base();
    produce(b, (d) => {
      expect(Array.isArray(d.sources)).toBe(true);
      expect(Object.keys(d)).toEqual(['version', 'sources']);
      expect(JSON.parse(JSON.stringify(d))).toEqual(b);
      expect({ ...d.sources[1]! }).toEqual(b.sources[1]);
      expect('name' in d.sources[0]!).toBe(true);
    });
  });

  it('revokes its drafts once finished, and never writes into the base', () => {
    const b = base();
    const session = new DraftSession();
    const d = session.draft(b);
    const table = d.sources[0]!.tables[0]!;
    session.finish(d);
    expect(() => table.perms).toThrow(TypeError);
    expect(() => {
      (b.sources[0]!.tables[0]!.perms as unknown[]).push(1);
    }).toThrow(TypeError);
  });

  it('gives back the committed object behind a draft nothing was changed in', () => {
    const b = base();
    produce(b, (d) => {
      expect(unchanged(d.sources[1])).toBe(b.sources[1]);
      d.sources[0]!.name = 'z';
      expect(unchanged(d.sources[0])).toBe(d.sources[0]);
      expect(unchanged(d)).toBe(d);
    });
  });

  it('tells what a finish changed: the keys written, across several finishes, and nothing for values it did not make', () => {
    const b = base();
    const one = produce(b, (d) => void d.sources[0]!.tables[1]!.perms!.push({ role: 'r9' }));
    expect(changedKeys(b.sources[0]!.tables, one.sources[0]!.tables)).toEqual(['1']);
    expect(changedKeys(b, one)).toEqual(['sources']);
    // A write of the value already there is no change; a later finish adds its own keys.
    const two = produce(one, (d) => {
      d.sources[0]!.tables[0]!.table = one.sources[0]!.tables[0]!.table;
      d.sources[0]!.tables.push({ table: { name: 't4' } });
    });
    // An array's length is its own to compare.
    expect(changedKeys(one.sources[0]!.tables, two.sources[0]!.tables)).toEqual(['2']);
    expect(changedKeys(b.sources[0]!.tables, two.sources[0]!.tables)?.sort()).toEqual(['1', '2']);
    expect(changedKeysSince(two.sources[0]!.tables, (l) => l === b.sources[0]!.tables)?.base).toBe(b.sources[0]!.tables);
    // Unrelated values, or a list made anew (filter) rather than drafted: unknown.
    expect(changedKeys(b.sources[1]!.tables, two.sources[0]!.tables)).toBeNull();
    const filtered = produce(two, (d) => void (d.sources[0]!.tables = d.sources[0]!.tables.filter(() => true)));
    expect(changedKeys(two.sources[0]!.tables, filtered.sources[0]!.tables)).toBeNull();
    expect(changedKeys(b, b)).toEqual([]);
  });

  it('compares picks only where a draft wrote, and everywhere when it cannot tell', () => {
    const b = base();
    const next = produce(b, (d) => void (d.sources[0]!.tables[1]!.extra = true));
    const [prev, now] = [b.sources[0]!.tables, next.sources[0]!.tables];
    expect(changedPlaces(prev, now)).toEqual([1]);
    const picked: number[] = [];
    expect(samePicks(prev, now, (t) => (picked.push(prev.indexOf(t) >= 0 ? prev.indexOf(t) : now.indexOf(t)), t.table))).toBe(true);
    expect(picked).toEqual([1, 1]);
    expect(samePicks(prev, now, (t) => t.extra)).toBe(false);
    const copy = deepFreeze(prev.map((t) => ({ ...t })));
    expect(changedPlaces(prev, copy)).toBeNull();
    expect(samePicks(prev, copy, (t) => t.table)).toBe(true);
  });

  it('reads what a draft holds without making drafts of it', () => {
    const b = base();
    produce(b, (d) => {
      const tables = current(d.sources[0]!.tables);
      expect(tables).toBe(b.sources[0]!.tables);
      expect(isDraft(tables[0])).toBe(false);
      d.sources[0]!.tables[1]!.extra = true;
      expect(isDraft(current(d.sources[0]!.tables)[1])).toBe(true);
      expect(current(b)).toBe(b);
    });
  });
});
