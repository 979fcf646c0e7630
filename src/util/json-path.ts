/**
 * JSON paths: the JWT configuration's (`claims_namespace_path`, `claims_map` paths) and a json
 * column's `path` argument:
 * `$`, `$.a.b`, `$.roles[0]`, `$['https://x.io/claims']`. The leading `$` may be left out,
 * as the well-known engine allows.
 */
import { isObject, type Json } from './decode.js';

export type JsonPath = (string | number)[];

const SEGMENT = /^(?:\.?([^.[\]'"]+)|\[(\d+)\]|\['([^']*)'\]|\["([^"]*)"\])/;

/** The segments of `text`, or undefined when it is not a JSON path. */
export function parseJsonPath(text: string): JsonPath | undefined {
  let rest = text.startsWith('$') ? text.slice(1) : text;
  if (rest === '' && text !== '$') return undefined;
  const path: JsonPath = [];
  while (rest !== '') {
    const m = SEGMENT.exec(rest);
    if (!m) return undefined;
    path.push(m[2] !== undefined ? Number(m[2]) : (m[1] ?? m[3] ?? m[4])!);
    rest = rest.slice(m[0].length);
  }
  return path;
}

/** The value at `path`, or undefined when some step is missing. */
export function valueAt(root: Json, path: JsonPath): Json | undefined {
  let current: Json | undefined = root;
  for (const step of path) {
    if (typeof step === 'number') current = Array.isArray(current) ? current[step] : undefined;
    else current = isObject(current) && Object.hasOwn(current, step) ? current[step] : undefined;
    if (current === undefined) return undefined;
  }
  return current;
}
