/**
 * Whether two lists pick the same objects, element by element. Committed metadata is frozen
 * and a change shares what it does not touch, so "same object" answers "unchanged" without
 * serialising anything (a permission change at 5,000 tables makes a new table list whose
 * entries' `table` and `event_triggers` are the ones of the last version).
 */
import { changedKeys } from './draft.js';

export function samePicks<T>(a: readonly T[], b: readonly T[], pick: (x: T) => unknown): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  const places = changedPlaces(a, b);
  if (places) return places.every((i) => pick(a[i]!) === pick(b[i]!));
  for (let i = 0; i < a.length; i++) if (pick(a[i]!) !== pick(b[i]!)) return false;
  return true;
}

/**
 * The places at which `next` may hold another element than `prev`, when a draft made it from
 * `prev` (util/draft.ts `changedKeys`) and kept its length; else null (unknown: look at every
 * place). Every other place holds the same element.
 */
export function changedPlaces<T>(prev: readonly T[], next: readonly T[]): number[] | null {
  if (prev === next) return [];
  if (prev.length !== next.length) return null;
  const keys = changedKeys(prev, next);
  return keys && indexes(keys);
}

/** The array indexes among property keys, in order. */
export function indexes(keys: readonly PropertyKey[]): number[] {
  const out: number[] = [];
  for (const k of keys) if (typeof k === 'string' && /^(0|[1-9]\d*)$/.test(k)) out.push(Number(k));
  return out.sort((x, y) => x - y);
}
