/**
 * What is read of a metadata version a draft made from the last one looks only where the draft
 * wrote (util/draft.ts `changedKeys`), and answers as a look at every entry would: the entries
 * with event triggers, remote relationships or enum tables (metadata/entries-with.ts), and the
 * normal form (metadata/document.ts `normalizeMetadata`).
 */
import { describe, expect, it } from 'vitest';
import { entriesWith } from '../../src/metadata/entries-with.js';
import { normalizeMetadata } from '../../src/metadata/document.js';
import type { Metadata, TableMetadata } from '../../src/metadata/types.js';
import { deepFreeze, produce } from '../../src/util/draft.js';

const entry = (name: string, extra: object = {}): TableMetadata => ({ table: { schema: 'public', name }, ...extra }) as TableMetadata;
const trigger = (name: string) => ({ name, definition: { insert: { columns: '*' } }, webhook: 'http://x' });
const doc = (tables: TableMetadata[]): Metadata =>
  deepFreeze({ version: 3, sources: [{ name: 'default', kind: 'postgres', configuration: {}, tables }] }) as unknown as Metadata;
const tablesOf = (m: Metadata) => m.sources[0]!.tables;
const everyPlace = (tables: readonly TableMetadata[], part: 'event_triggers' | 'is_enum') => [...tables.keys()].filter((i) => entriesWith(deepFreeze([...tables]), part).includes(i));

describe('versions a draft made', () => {
  it('finds the entries with event triggers (or enum tables) as a look at every entry does, through changes', () => {
    const versions = [doc([entry('a'), entry('b', { event_triggers: [trigger('t1')] }), entry('c'), entry('d', { is_enum: true })])];
    const change = (recipe: (d: Metadata) => void) => versions.push(produce(versions.at(-1)!, recipe));
    change((d) => void (tablesOf(d)[2]!.event_triggers = [trigger('t2')]));
    change((d) => void delete tablesOf(d)[1]!.event_triggers);
    change((d) => void tablesOf(d).splice(0, 1));
    change((d) => void tablesOf(d).push(entry('e', { event_triggers: [trigger('t3')], is_enum: true })));
    for (const m of versions) {
      expect(entriesWith(tablesOf(m), 'event_triggers')).toEqual(everyPlace(tablesOf(m), 'event_triggers'));
      expect(entriesWith(tablesOf(m), 'is_enum')).toEqual(everyPlace(tablesOf(m), 'is_enum'));
    }
    expect(entriesWith(tablesOf(versions.at(-1)!), 'event_triggers').map((i) => tablesOf(versions.at(-1)!)[i]!.table.name)).toEqual(['c', 'e']);
  });

  it('brings to normal form the entries a change left with an empty list, and keeps the others as they are', () => {
    const first = normalizeMetadata(doc([entry('a', { select_permissions: [{ role: 'r', permission: {} }] }), entry('b', { computed_fields: [] })]));
    expect(tablesOf(first)[1]).toEqual(entry('b'));
    const next = normalizeMetadata(produce(first, (d) => void (tablesOf(d)[0]!.select_permissions = [])));
    expect(tablesOf(next)).toEqual([entry('a'), entry('b')]);
    expect(tablesOf(next)[1]).toBe(tablesOf(first)[1]);
    // Normal already: the same document.
    expect(normalizeMetadata(next)).toBe(next);
  });
});
