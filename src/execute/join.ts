/**
 * Joining a step's results into its parent's JSON (`StepJoin`): only the steps a join
 * reads are parsed, once each; everything else stays database text.
 */
import type { StepJoin } from '../protocol/plan.js';

type JsonObject = Record<string, unknown>;

/** The parent objects a join writes into, and the distinct key tuples it asks the child for. */
export interface JoinTargets {
  /** `{<child key>: value}` per distinct tuple, in first-seen order. */
  tuples: JsonObject[];
  /** Each parent object with the index of its tuple in `tuples` (null: a key is null, the field is null). */
  objects: { object: JsonObject; tuple: number | null }[];
}

/** The objects at `at` in a parsed value: lists on the way are walked element by element, nulls skipped. */
function objectsAt(value: unknown, at: string[], out: JsonObject[]): void {
  if (Array.isArray(value)) {
    for (const v of value) objectsAt(v, at, out);
    return;
  }
  if (value === null || typeof value !== 'object') return;
  if (at.length === 0) out.push(value as JsonObject);
  else objectsAt((value as JsonObject)[at[0]!], at.slice(1), out);
}

export function joinTargets(parent: unknown, join: StepJoin): JoinTargets {
  const found: JsonObject[] = [];
  objectsAt(parent, join.at, found);
  const tuples: JsonObject[] = [];
  const seen = new Map<string, number>();
  const objects = found.map((object) => {
    const values = join.keys.map((k) => object[k.parent]);
    if (values.some((v) => v === null || v === undefined)) return { object, tuple: null };
    const key = JSON.stringify(values);
    let tuple = seen.get(key);
    if (tuple === undefined) {
      tuple = tuples.length;
      seen.set(key, tuple);
      tuples.push(Object.fromEntries(join.keys.map((k, i) => [k.child, values[i]])));
    }
    return { object, tuple };
  });
  return { tuples, objects };
}

/** Writes each tuple's value (`values[i]` for `tuples[i]`) into the objects that asked for it. */
export function attachJoined(targets: JoinTargets, join: StepJoin, values: unknown[]): void {
  if (values.length !== targets.tuples.length) {
    throw new Error(`join step returned ${values.length} values for ${targets.tuples.length} key tuples`);
  }
  for (const { object, tuple } of targets.objects) object[join.field] = tuple === null ? null : values[tuple];
}

/** Keys selected only for the join leave the response once every join has read them. */
export function removeHidden(targets: JoinTargets, join: StepJoin): void {
  if (join.hidden.length === 0) return;
  for (const { object } of targets.objects) for (const key of join.hidden) delete object[key];
}

/** A place in the response: response keys and list indexes from `data` down (a GraphQL error's `path`). */
export type ResponsePath = (string | number)[];

/**
 * Where each tuple's value went in the response: per tuple, the path of the joined field in
 * every object that asked for it (`base`: the parent step's place in the response). Walked again
 * only when needed (errors to place), in the order `joinTargets` found the objects.
 */
export function joinPlaces(parent: unknown, join: StepJoin, targets: JoinTargets, base: ResponsePath): ResponsePath[][] {
  const tupleOf = new Map(targets.objects.map((o) => [o.object, o.tuple]));
  const places: ResponsePath[][] = targets.tuples.map(() => []);
  const walk = (value: unknown, at: string[], here: ResponsePath): void => {
    if (Array.isArray(value)) return value.forEach((v, i) => walk(v, at, [...here, i]));
    if (value === null || typeof value !== 'object') return;
    if (at.length > 0) return walk((value as JsonObject)[at[0]!], at.slice(1), [...here, at[0]!]);
    const tuple = tupleOf.get(value as JsonObject);
    if (tuple !== undefined && tuple !== null) places[tuple]!.push([...here, join.field]);
  };
  walk(parent, join.at, base);
  return places;
}

/** The request path (`$.selectionSet.a.selectionSet.b`, as compile errors write it) of the field at these response keys. */
export const requestPath = (keys: string[]): string => (keys.length === 0 ? '$' : `$.selectionSet.${keys.join('.selectionSet.')}`);
