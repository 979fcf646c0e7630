/**
 * JSON values as the template language sees them, with the behaviour of Haskell's aeson
 * where Kriti leans on it: constructor names in messages, the derived ordering used by
 * `<`/`>`, and the text `encode` produces when a value is interpolated into a string.
 */

import { compareText } from './text.js';
import { jsonKind } from '../util/decode.js';

export type JsonValue = null | boolean | number | string | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue;
}

export type JsonTypeName = 'Object' | 'Array' | 'String' | 'Number' | 'Boolean' | 'Null';

export function isJsonObject(v: JsonValue): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export const typeName = (v: JsonValue): JsonTypeName => jsonKind(v);

export function lookupKey(o: JsonObject, key: string): JsonValue | undefined {
  return Object.hasOwn(o, key) ? o[key] : undefined;
}

export function sortedKeys(o: JsonObject): string[] {
  return Object.keys(o).sort(compareText);
}

export function jsonEqual(a: JsonValue, b: JsonValue): boolean {
  return jsonCompare(a, b) === 0;
}

// aeson's `Value` derives `Ord`: constructors compare in declaration order first.
const RANK: Record<JsonTypeName, number> = { Object: 0, Array: 1, String: 2, Number: 3, Boolean: 4, Null: 5 };

export function jsonCompare(a: JsonValue, b: JsonValue): number {
  const ta = typeName(a);
  const tb = typeName(b);
  if (ta !== tb) return RANK[ta] - RANK[tb];
  if (Array.isArray(a) && Array.isArray(b)) return compareLists(a, b);
  if (isJsonObject(a) && isJsonObject(b)) {
    // An aeson object is an ordered map: compare its ascending (key, value) pairs.
    const pairs = (o: JsonObject) => sortedKeys(o).flatMap((k): JsonValue[] => [k, o[k]!]);
    return compareLists(pairs(a), pairs(b));
  }
  if (typeof a === 'string' && typeof b === 'string') return compareText(a, b);
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  return 0;
}

function compareLists(a: JsonValue[], b: JsonValue[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const d = jsonCompare(a[i]!, b[i]!);
    if (d !== 0) return d;
  }
  return a.length - b.length;
}

/**
 * Data.Scientific's `show`: fixed notation when the decimal exponent is within 0..7,
 * scientific otherwise, always with a fractional part ("5.0", "1.0e-2").
 */
export function showScientific(n: number): string {
  if (n < 0) return `-${showScientific(-n)}`;
  if (n === 0) return '0.0';
  const [mantissa, exp] = n.toExponential().split('e') as [string, string];
  const digits = mantissa.replace('.', '');
  const e = Number(exp) + 1; // value = 0.d1d2... * 10^e
  if (e < 0 || e > 7) return `${digits[0]}.${digits.length > 1 ? digits.slice(1) : '0'}e${e - 1}`;
  if (e === 0) return `0.${digits}`;
  const whole = digits.slice(0, e).padEnd(e, '0');
  return `${whole}.${digits.slice(e) || '0'}`;
}

/** aeson's number encoding: integers in full, other values as `showScientific`. */
export function encodeNumber(n: number): string {
  return Number.isInteger(n) ? BigInt(n).toString() : showScientific(n);
}

function encodeString(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (c < 0x20) out += `\\u${c.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}

/** aeson's `encode`: compact, object keys in ascending order. */
export function encodeJson(v: JsonValue): string {
  if (v === null) return 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'number') return encodeNumber(v);
  if (typeof v === 'string') return encodeString(v);
  if (Array.isArray(v)) return `[${v.map(encodeJson).join(',')}]`;
  return `{${sortedKeys(v)
    .map((k) => `${encodeString(k)}:${encodeJson(v[k]!)}`)
    .join(',')}}`;
}
