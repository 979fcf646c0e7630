/**
 * The places of a source's table list whose entries have event triggers, remote relationships,
 * or are enum tables: each metadata version is looked over for them several times (resolution,
 * the snapshot and its views, the trigger sync), and most of 5,000 entries have none. Kept per
 * frozen list; a list a draft made from a kept one is looked at only where the draft wrote.
 */
import { changedKeysSince } from '../util/draft.js';
import { indexes } from '../util/same-picks.js';
import type { TableMetadata } from './types.js';

type EntryPart = 'event_triggers' | 'remote_relationships' | 'is_enum';

const kept: Record<EntryPart, WeakMap<readonly TableMetadata[], readonly number[]>> = { event_triggers: new WeakMap(), remote_relationships: new WeakMap(), is_enum: new WeakMap() };

/** A list that is not empty, or true. */
const present = (v: unknown) => (Array.isArray(v) ? v.length > 0 : Boolean(v));

const having = (tables: readonly TableMetadata[], part: EntryPart, places: Iterable<number>): number[] => {
  const out: number[] = [];
  for (const i of places) if (present(tables[i]![part])) out.push(i);
  return out;
};

/** The places, in order, of the entries whose `part` is a list that is not empty, or true. */
export function entriesWith(tables: readonly TableMetadata[], part: EntryPart): readonly number[] {
  if (!Object.isFrozen(tables)) return having(tables, part, tables.keys());
  const memo = kept[part];
  let places = memo.get(tables);
  if (places) return places;
  const since = changedKeysSince(tables, (l) => memo.has(l));
  if (since) {
    const changed = new Set(indexes(since.keys).filter((i) => i < tables.length));
    const before = memo.get(since.base)!.filter((i) => i < tables.length && !changed.has(i));
    places = [...before, ...having(tables, part, changed)].sort((a, b) => a - b);
  } else {
    places = having(tables, part, tables.keys());
  }
  memo.set(tables, Object.freeze(places));
  return places;
}
