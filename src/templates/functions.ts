/**
 * The functions every template can call (Kriti's `basicFuncMap` in
 * `Kriti/CustomFunctions.hs`), plus Hasura's `getSessionVariable`. A function takes one
 * JSON value; its failure message becomes a "Function Error". Type mismatches use
 * aeson's parser messages, as Kriti builds most functions from aeson parsers.
 */
import { isJsonObject, sortedKeys, typeName, type JsonObject, type JsonTypeName, type JsonValue } from './json.js';
import { caseFold, toTitle } from './text.js';
import { escapeUnreserved } from './uri.js';

export type FunctionResult = { ok: true; value: JsonValue } | { ok: false; message: string };
export type TemplateFunction = (arg: JsonValue) => FunctionResult;
export type TemplateFunctions = Readonly<Record<string, TemplateFunction>>;

const ok = (value: JsonValue): FunctionResult => ({ ok: true, value });
const failure = (message: string): FunctionResult => ({ ok: false, message });

/** aeson's `withText "String"`-style failure. */
const mismatch = (context: string, expected: JsonTypeName, v: JsonValue) =>
  failure(`parsing ${context} failed, expected ${expected}, but encountered ${typeName(v)}`);

const onString =
  (f: (s: string) => string): TemplateFunction =>
  (v) =>
    typeof v === 'string' ? ok(f(v)) : mismatch('String', 'String', v);

function empty(v: JsonValue): FunctionResult {
  if (typeof v === 'boolean') return failure('Cannot define emptiness for a boolean');
  if (v === null) return ok(true);
  if (typeof v === 'number') return ok(v === 0);
  if (typeof v === 'string') return ok(v.trim() === '');
  return ok((Array.isArray(v) ? v : Object.keys(v)).length === 0);
}

function size(v: JsonValue): FunctionResult {
  if (v === null) return ok(0);
  if (typeof v === 'number') return ok(v);
  if (typeof v === 'boolean') return ok(v ? 1 : 0);
  if (typeof v === 'string') return ok([...v].length);
  return ok((Array.isArray(v) ? v : Object.keys(v)).length);
}

function inverse(v: JsonValue): FunctionResult {
  if (typeof v === 'boolean') return ok(!v);
  // Kriti divides Scientific values, which throws on zero; report it instead.
  if (typeof v === 'number') return v === 0 ? failure('divide by zero') : ok(1 / v);
  if (typeof v === 'string') return ok([...v].reverse().join(''));
  if (Array.isArray(v)) return ok([...v].reverse());
  return ok(v);
}

function head(v: JsonValue): FunctionResult {
  if (Array.isArray(v)) return v.length === 0 ? failure('Empty array') : ok(v[0]!);
  if (typeof v === 'string') return v === '' ? failure('Empty string') : ok([...v][0]!);
  return failure('Expected an array or string');
}

// Kriti's `tail` crashes on empty input; it fails here with `head`'s messages.
function tail(v: JsonValue): FunctionResult {
  if (Array.isArray(v)) return v.length === 0 ? failure('Empty array') : ok(v.slice(1));
  if (typeof v === 'string') return v === '' ? failure('Empty string') : ok([...v].slice(1).join(''));
  return failure('Expected an array or string');
}

function fromPairs(v: JsonValue): FunctionResult {
  if (!Array.isArray(v)) return mismatch('Nested Arrays', 'Array', v);
  const entries: [string, JsonValue][] = [];
  for (const pair of v) {
    if (!Array.isArray(pair)) return mismatch('Array of Pair', 'Array', pair);
    const [k, value] = pair;
    if (pair.length !== 2) return failure('Expected an array of shape [ [k1,v1], [k2,v2] ... ] - With String keys.');
    if (typeof k !== 'string') return mismatch('Key', 'String', k!);
    entries.push([k, value!]);
  }
  return ok(Object.fromEntries(entries));
}

function toPairs(v: JsonValue): FunctionResult {
  if (!isJsonObject(v)) return mismatch('Object', 'Object', v);
  return ok(sortedKeys(v).map((k): JsonValue => [k, v[k]!]));
}

function removeNulls(v: JsonValue): FunctionResult {
  return Array.isArray(v) ? ok(v.filter((x) => x !== null)) : mismatch('Array', 'Array', v);
}

/** All arrays, else all strings, else all objects (the right-most key wins); else the object parser's error. */
function concat(v: JsonValue): FunctionResult {
  if (!Array.isArray(v)) return mismatch('Array', 'Array', v);
  if (v.every(Array.isArray)) return ok(v.flat(1));
  if (v.every((x) => typeof x === 'string')) return ok(v.join(''));
  const notObject = v.find((x) => !isJsonObject(x));
  if (notObject !== undefined) return mismatch('Nested Object', 'Object', notObject);
  return ok(Object.fromEntries((v as JsonObject[]).flatMap((o) => Object.entries(o))));
}

function not(v: JsonValue): FunctionResult {
  return typeof v === 'boolean' ? ok(!v) : mismatch('Bool', 'Boolean', v);
}

export const BASIC_FUNCTIONS: TemplateFunctions = {
  empty,
  size,
  inverse,
  head,
  tail,
  toCaseFold: onString(caseFold),
  toLower: onString((s) => s.toLowerCase()),
  toUpper: onString((s) => s.toUpperCase()),
  toTitle: onString(toTitle),
  escapeUri: onString(escapeUnreserved),
  fromPairs,
  toPairs,
  removeNulls,
  concat,
  not,
};

/** Hasura's `getSessionVariable`: a case-insensitive lookup; `null` gives `null`. */
export function getSessionVariable(sessionVariables: JsonValue | undefined): TemplateFunction {
  const vars = sessionVariables !== undefined && isJsonObject(sessionVariables) ? sessionVariables : {};
  return (name) => {
    if (name === null) return ok(null);
    if (typeof name !== 'string') return failure('Session variable name should be a string');
    const key = Object.keys(vars).find((k) => caseFold(k) === caseFold(name));
    return key === undefined ? failure(`Session variable "${name}" not found`) : ok(vars[key]!);
  };
}
