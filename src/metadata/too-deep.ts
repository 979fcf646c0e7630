/**
 * Stored objects nested too deep to be served (a store row written before the nesting
 * limit existed, or edited by hand): such a document would overflow the stack of every
 * thread it is sent to, at every boot. They are taken out of the document in effect,
 * so the engine boots; the caller reports them.
 */
import { MAX_NESTING_DEPTH, segmentsPath, tooDeepSegments } from '../util/nesting.js';
import type { Metadata } from './types.js';

/**
 * A stored document holds a request's values a few levels down (a permission filter sits
 * 11 levels deep), so it may be nested a little more than a request body.
 */
export const MAX_STORED_DEPTH = 2 * MAX_NESTING_DEPTH;

/** The path of a top-level object (`sources[i].tables[j].<list>[k]`, or a top-level section's entry) holding the deep value. */
const OBJECT_LEVELS = 6;

/** Removes each object that holds a value nested deeper than MAX_STORED_DEPTH; returns their paths. */
export function dropTooDeepObjects(m: Metadata): string[] {
  const dropped: string[] = [];
  for (let at = tooDeepSegments(m, MAX_STORED_DEPTH); at; at = tooDeepSegments(m, MAX_STORED_DEPTH)) {
    // The innermost list entry among the first levels is the object; else the top-level key.
    let cut = 0;
    for (let i = 0; i < Math.min(OBJECT_LEVELS, at.length); i++) if (typeof at[i] === 'number') cut = i;
    const parent = at.slice(0, cut).reduce<unknown>((v, s) => (v as Record<string | number, unknown>)[s], m) as Record<string | number, unknown>;
    const last = at[cut]!;
    if (Array.isArray(parent) && typeof last === 'number') parent.splice(last, 1);
    else delete parent[last];
    dropped.push(segmentsPath(at.slice(0, cut + 1)));
  }
  return dropped;
}
