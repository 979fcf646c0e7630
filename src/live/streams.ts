/**
 * Streaming subscriptions in the multiplexer, where they differ from live
 * queries: a streaming cohort's values hold its cursor (`execute/cohort.ts`), which moves to
 * the last row of each batch delivered, so its key in its multiplexed query moves with it
 * (as the well-known engine rebuilds its cohort map after each poll): a new subscriber whose
 * `initial_value` is a cohort's current cursor joins it.
 */
import type { CohortValues } from '../protocol/live.js';

/** What a cohort is keyed by in its multiplexed query: its values as the multiplexed statements read them. */
export const cohortKey = (texts: (string | null)[]): string => JSON.stringify(texts);

interface StreamingCohort {
  key: string;
  values: (CohortValues | null)[];
  texts: (string | null)[];
}

/**
 * Moves each streaming step's cursor to its new value (null: an empty batch, the cursor
 * stays) and files the cohort under its new key. Returns whether a cursor moved, which is
 * when the batch has rows to send.
 */
export function advanceCursors<C extends StreamingCohort>(cohorts: Map<string, C>, cohort: C, cursors: (string | null)[]): boolean {
  let moved = false;
  cursors.forEach((cursor, i) => {
    const values = cohort.values[i];
    if (cursor === null || !values) return;
    cohort.values[i] = { ...values, cursor };
    cohort.texts[i] = JSON.stringify(cohort.values[i]);
    moved = true;
  });
  // A cohort whose last subscriber left while its batch ran is no longer filed.
  if (!moved || cohorts.get(cohort.key) !== cohort) return moved;
  cohorts.delete(cohort.key);
  // Another cohort may already be at this cursor (it started there): both carry on, new subscribers join the first.
  let key = cohortKey(cohort.texts);
  while (cohorts.has(key)) key += '\u0000';
  cohort.key = key;
  cohorts.set(key, cohort);
  return true;
}

