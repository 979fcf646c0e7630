/**
 * A document as its parts: the skeleton (everything but the table entries, each source's
 * `tables` left as `[]` in place) and, per source, its table entries in order, each keyed by
 * its table name. The store keeps a row per entry and the snapshot travels as the parts a
 * change touched: both write what `diffDocuments` says changed, so a
 * permission change on one of 5,000 tables writes and publishes one entry, not 36 MiB.
 */
import type { Metadata, SourceMetadata, TableMetadata } from './types.js';
import { changedPlaces, samePicks } from '../util/same-picks.js';
import { sharedBodies, withoutSharedBodies, withSharedBodies, type SharedBodies } from './equal-permissions.js';

const entryKeys = new WeakMap<object, string>();

/** An entry's key within its source: its table name as JSON text (unique per source, any backend's name shape). */
export function tableEntryKey(t: TableMetadata): string {
  // Kept per (frozen, shared) name object: a diff reads the keys of every entry of both documents.
  let key = entryKeys.get(t.table);
  if (key === undefined) {
    key = JSON.stringify(t.table);
    if (Object.isFrozen(t.table)) entryKeys.set(t.table, key);
  }
  return key;
}

/** Each frozen table entry's JSON text: entries are frozen and shared between versions of the document. */
const entryJsons = new WeakMap<TableMetadata, string>();

/** The entry's JSON text, every permission body written out: what two entries are compared by. */
export function tableEntryJson(t: TableMetadata): string {
  let text = entryJsons.get(t);
  if (text === undefined) {
    text = JSON.stringify(t);
    if (Object.isFrozen(t)) entryJsons.set(t, text);
  }
  return text;
}

const entryTexts = new WeakMap<TableMetadata, string>();

/**
 * The entry as the store keeps it and a snapshot update carries it: its JSON text, or, when
 * several items of a permission list have the same body object, `[entry, shared]` with each such
 * body written once (`sharedBodies`). One text for both: at 5,000 tables × 11 roles writing the
 * entries out was 0.3 s of replace_metadata in each, and the store's 32 MiB become 17 MiB.
 */
export function tableEntryText(t: TableMetadata): string {
  let text = entryTexts.get(t);
  if (text === undefined) {
    const shared = sharedBodies(t);
    text = shared === null ? tableEntryJson(t) : JSON.stringify([withoutSharedBodies(t, shared), shared]);
    if (Object.isFrozen(t)) entryTexts.set(t, text);
  }
  return text;
}

/** An entry from its `tableEntryText` (or from a plain entry's JSON, as the store held them before). */
export function parseTableEntry(text: string): TableMetadata {
  const value = JSON.parse(text) as TableMetadata | [TableMetadata, SharedBodies];
  if (!Array.isArray(value)) return value;
  if (value.length !== 2 || typeof value[0] !== 'object' || value[0] === null || typeof value[1] !== 'object' || value[1] === null) {
    throw new Error('a stored table entry is neither an entry nor [entry, shared bodies]');
  }
  return withSharedBodies(value[0], value[1]);
}

/** The document without its table entries (small: sources' settings, remote schemas, actions...); keys stay in place. */
export const skeletonJson = (m: Metadata): string => JSON.stringify({ ...m, sources: m.sources.map((s) => ({ ...s, tables: [] })) });

/** What changed in one source's table entries. */
export type SourceTablesChange =
  /** Every entry, in order (a new source, or entries reordered). */
  | { source: string; kind: 'all'; entries: TableMetadata[] }
  /** Entries changed in place or appended (in order), and entries removed (by key). */
  | { source: string; kind: 'some'; upserts: TableMetadata[]; deletes: string[] }
  /** The source is gone. */
  | { source: string; kind: 'gone' };

export interface DocumentDiff {
  /** The new skeleton's JSON text when it changed, else null. */
  skeleton: string | null;
  tables: SourceTablesChange[];
}

/**
 * What `next` changes from `prev` (null: everything), or null when the two documents are the
 * same text. Entries that are the same objects are not looked at; others are compared by text.
 */
export function diffDocuments(prev: Metadata | null, next: Metadata): DocumentDiff | null {
  const skeleton = skeletonJson(next);
  const diff: DocumentDiff = { skeleton: prev && skeletonJson(prev) === skeleton ? null : skeleton, tables: [] };
  const before = new Map((prev?.sources ?? []).map((s) => [s.name, s]));
  for (const s of next.sources) {
    const p = before.get(s.name);
    before.delete(s.name);
    const change = p ? diffTables(p, s) : { source: s.name, kind: 'all' as const, entries: s.tables };
    if (change) diff.tables.push(change);
  }
  for (const name of before.keys()) diff.tables.push({ source: name, kind: 'gone' });
  return diff.skeleton === null && diff.tables.length === 0 ? null : diff;
}

/** Whether `next` holds an entry `prev` does not (text compared only when the objects differ). */
const changedEntry = (prev: TableMetadata | undefined, next: TableMetadata) => prev !== next && (prev === undefined || tableEntryJson(prev) !== tableEntryJson(next));

/**
 * The usual change: the same tables in the same places (their names the same shared objects),
 * one or a few of their entries changed. Callers then compare the entries at `changedTablePlaces`.
 */
export const sameTablePlaces = (prev: readonly TableMetadata[], next: readonly TableMetadata[]): boolean => samePicks(prev, next, (t) => t.table);

/**
 * The places of `next` whose entry is not the same object as `prev`'s at that place, in order:
 * those a draft wrote when it made `next` from `prev`, else found by looking at every place.
 */
export function changedTablePlaces(prev: readonly TableMetadata[], next: readonly TableMetadata[]): number[] {
  const places = changedPlaces(prev, next) ?? next.map((_, i) => i);
  return places.filter((i) => prev[i] !== next[i]);
}

function diffTables(prev: SourceMetadata, next: SourceMetadata): SourceTablesChange | null {
  if (prev.tables === next.tables) return null;
  if (sameTablePlaces(prev.tables, next.tables)) {
    const upserts = changedTablePlaces(prev.tables, next.tables)
      .filter((i) => changedEntry(prev.tables[i], next.tables[i]!))
      .map((i) => next.tables[i]!);
    return upserts.length === 0 ? null : { source: next.name, kind: 'some', upserts, deletes: [] };
  }
  const old = new Map(prev.tables.map((t) => [tableEntryKey(t), t]));
  const keys = next.tables.map(tableEntryKey);
  const kept = keys.filter((k) => old.has(k));
  const keptSet = new Set(kept);
  const keptBefore = [...old.keys()].filter((k) => keptSet.has(k));
  // Kept entries in the same order, and new ones only after the last kept one: an in-place patch.
  const lastKept = kept.length === 0 ? -1 : keys.lastIndexOf(kept[kept.length - 1]!);
  const inPlace = kept.length === keptBefore.length && kept.every((k, i) => keptBefore[i] === k) && keys.every((k, i) => old.has(k) || i > lastKept);
  if (!inPlace) return { source: next.name, kind: 'all', entries: next.tables };
  const upserts = next.tables.filter((t, i) => changedEntry(old.get(keys[i]!), t));
  const present = new Set(keys);
  const deletes = [...old.keys()].filter((k) => !present.has(k));
  return upserts.length === 0 && deletes.length === 0 ? null : { source: next.name, kind: 'some', upserts, deletes };
}

/** Whether a diff changes (adds, replaces or removes) more table entries than half of those `next` has. */
export function changesMostTables(diff: DocumentDiff | null, next: Metadata): boolean {
  if (!diff) return false;
  const total = next.sources.reduce((n, s) => n + s.tables.length, 0);
  const changed = diff.tables.reduce((n, t) => n + (t.kind === 'all' ? t.entries.length : t.kind === 'some' ? t.upserts.length + t.deletes.length : 0), 0);
  return changed * 2 > total;
}
