/**
 * Whether two lists pick the same objects, element by element. Committed metadata is frozen
 * and a change shares what it does not touch, so "same object" answers "unchanged" without
 * serialising anything (a permission change at 5,000 tables makes a new table list whose
 * entries' `table` and `event_triggers` are the ones of the last version).
 */
export function samePicks<T>(a: readonly T[], b: readonly T[], pick: (x: T) => unknown): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (pick(a[i]!) !== pick(b[i]!)) return false;
  return true;
}
