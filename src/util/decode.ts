/**
 * Small decoders for JSON arguments that keep the JSON path of what they read, so an
 * error can say where (`$.args.table.name`) and what (aeson-style messages, which
 * clients of the well-known engine already match on).
 */
import { parseFailed } from '../errors/admin.js';

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type JsonObject = { [k: string]: Json };

/** A JSON value's kind as aeson-style messages name it (`String`, `Object`, ...). */
export function jsonKind(v: unknown): 'Null' | 'Array' | 'String' | 'Number' | 'Boolean' | 'Object' {
  if (v === null) return 'Null';
  if (Array.isArray(v)) return 'Array';
  switch (typeof v) {
    case 'string':
      return 'String';
    case 'number':
      return 'Number';
    case 'boolean':
      return 'Boolean';
    default:
      return 'Object';
  }
}

function expected(what: string, expectedKind: string, v: unknown, path: string): never {
  throw parseFailed(`parsing ${what} failed, expected ${expectedKind}, but encountered ${jsonKind(v)}`, path);
}

export const keyPath = (path: string, key: string) => (/^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`);

export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Reads an object's fields by name, failing on unknown keys when `strict`. */
export class ObjectReader {
  private readonly seen = new Set<string>();
  constructor(
    readonly value: JsonObject,
    readonly path: string,
  ) {}

  static of(v: unknown, path: string, what = 'Object'): ObjectReader {
    if (!isObject(v)) expected(what, 'Object', v, path);
    return new ObjectReader(v, path);
  }

  has(key: string): boolean {
    return this.value[key] !== undefined;
  }

  at(key: string): string {
    return keyPath(this.path, key);
  }

  required<T>(key: string, decode: (v: unknown, path: string) => T): T {
    this.seen.add(key);
    const v = this.value[key];
    if (v === undefined) throw parseFailed(`key "${key}" not found`, this.path);
    return decode(v, this.at(key));
  }

  /** Absent and null both give `undefined`. */
  optional<T>(key: string, decode: (v: unknown, path: string) => T): T | undefined {
    this.seen.add(key);
    const v = this.value[key];
    if (v === undefined || v === null) return undefined;
    return decode(v, this.at(key));
  }

  withDefault<T>(key: string, decode: (v: unknown, path: string) => T, dflt: T): T {
    return this.optional(key, decode) ?? dflt;
  }

  /** Marks keys as known without reading them. */
  ignore(...keys: string[]): this {
    for (const k of keys) this.seen.add(k);
    return this;
  }

  /** Fails on a key no reader asked for: a misspelt argument must not pass silently. */
  done(): void {
    const extra = Object.keys(this.value).filter((k) => !this.seen.has(k));
    if (extra.length > 0) {
      throw parseFailed(`unexpected fields in ${this.path === '$' ? 'the object' : this.path}: ${extra.join(', ')}`, this.path);
    }
  }
}

export function str(v: unknown, path: string): string {
  if (typeof v !== 'string') expected('Text', 'String', v, path);
  return v;
}

/** A string, or null read as absent (an optional `comment` given as null). */
export function strOrNull(v: unknown, path: string): string | undefined {
  return v === null ? undefined : str(v, path);
}

export function nonEmptyStr(v: unknown, path: string): string {
  const s = str(v, path);
  if (s.length === 0) throw parseFailed('empty string not allowed', path);
  return s;
}

export function bool(v: unknown, path: string): boolean {
  if (typeof v !== 'boolean') expected('Bool', 'Boolean', v, path);
  return v;
}

export function int(v: unknown, path: string): number {
  if (typeof v !== 'number') expected('Int', 'Number', v, path);
  if (!Number.isInteger(v)) throw parseFailed(`parsing Int failed, value is either floating or will cause over or underflow ${v}`, path);
  return v;
}

export function num(v: unknown, path: string): number {
  if (typeof v !== 'number') expected('Number', 'Number', v, path);
  return v;
}

export function obj(v: unknown, path: string): JsonObject {
  if (!isObject(v)) expected('Object', 'Object', v, path);
  return v;
}

/** An object whose values are all strings (headers, environment samples, form fields). */
export function stringMap(v: unknown, path: string): Record<string, string> {
  return Object.fromEntries(Object.entries(obj(v, path)).map(([k, x]) => [k, str(x, keyPath(path, k))]));
}

export function json(v: unknown): Json {
  return v as Json;
}

export function arrayOf<T>(item: (v: unknown, path: string) => T) {
  return (v: unknown, path: string): T[] => {
    if (!Array.isArray(v)) expected('[]', 'Array', v, path);
    return v.map((x, i) => item(x, `${path}[${i}]`));
  };
}

export function oneOf<T extends string>(values: readonly T[], what: string) {
  return (v: unknown, path: string): T => {
    const s = str(v, path);
    if (!(values as readonly string[]).includes(s)) {
      throw parseFailed(`unexpected ${what} ${JSON.stringify(s)}; expected one of ${values.join(', ')}`, path);
    }
    return s as T;
  };
}
