/**
 * One object for the equal permission bodies of a table entry, and for the equal parts of
 * different ones. Roles are often given the same permission on a table word for word, or one
 * that differs in a part only (a row limit, a column list), and a parsed document holds a copy
 * of every part per role: at 5,000 tables × 11 roles the bodies were 70 of the 100 MiB a parsed
 * document takes, in the metadata actor and again in the schema builder (with every role's
 * permissions different in a part, 59 of 109 MiB). Sharing whole bodies also lets resolution
 * find the permissions it already checked by identity (resolve/permissions.ts).
 */
import { sameJson } from '../util/same-json.js';
import type { JsonObject } from '../util/decode.js';
import type { TableMetadata } from './types.js';

const PERMISSION_LISTS = ['insert_permissions', 'select_permissions', 'update_permissions', 'delete_permissions'] as const;

/**
 * Makes each permission body of the entry that equals an earlier one of its list that one, and
 * each part of a body (its `filter`, `columns`, ...) that equals the same part of an earlier
 * body of the entry that one. Equal is the same JSON text (keys in the same order, as
 * `sameJson`). A few values of a kind are compared one by one; past that they are found by
 * their text (`EqualValues`), so that an entry with many roles is not compared pairwise (100
 * roles with permissions of their own took 32 s at 5,000 tables): a body is then named by its
 * keys, its parts (by which one they are) and its scalars. Only what is not frozen yet is
 * changed (an entry just parsed or decoded, before it is frozen).
 */
export function shareEqualPermissions(entry: Partial<TableMetadata>): void {
  const parts = new Map<string, EqualValues<object>>();
  const partsOf = (key: string) => parts.get(key) ?? parts.set(key, new EqualValues<object>((v) => JSON.stringify(v))).get(key)!;
  const partIds = new Map<object, number>();
  const partId = (part: object) => partIds.get(part) ?? partIds.set(part, partIds.size).get(part)!;
  /**
   * A body's text for finding it among many: its scalars, and its parts by which one they are
   * (its parts are the shared ones already, `shareParts`, unless it is frozen).
   */
  const bodyName = (body: unknown): string => {
    if (!isPlainObject(body)) return JSON.stringify(body);
    const frozen = Object.isFrozen(body);
    let name = '';
    for (const key of Object.keys(body)) {
      const part = body[key];
      if (typeof part !== 'object' || part === null) name += `${JSON.stringify(key)}:${JSON.stringify(part)},`;
      else name += `${JSON.stringify(key)}:#${partId(frozen ? partsOf(key).find(part) : part)},`;
    }
    return name;
  };
  for (const list of PERMISSION_LISTS) {
    const items = entry[list];
    if (!items) continue;
    const bodies = new EqualValues<unknown>(bodyName);
    const seen = new Set<unknown>();
    let last: unknown;
    for (const item of items) {
      const body = item.permission;
      // A body shared already (a snapshot entry's) is not looked at again.
      if (seen.has(body)) continue;
      seen.add(body);
      // Most often every role has the same body: the one before it.
      let same = last !== undefined && sameJson(last, body) ? last : undefined;
      if (same === undefined) {
        if (isPlainObject(body)) shareParts(body, partsOf);
        same = bodies.find(body);
        if (same === body) last = body;
      }
      if (same !== body && !Object.isFrozen(item)) (item as JsonObject).permission = same as JsonObject;
    }
  }
}

const isPlainObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Makes each object or array part of the body the equal part of its key met before in the entry. */
function shareParts(body: JsonObject, partsOf: (key: string) => EqualValues<object>): void {
  for (const key of Object.keys(body)) {
    const part = body[key];
    if (typeof part !== 'object' || part === null) continue;
    const same = partsOf(key).find(part);
    if (same !== part && !Object.isFrozen(body)) body[key] = same as JsonObject;
  }
}

/** How many different values of a kind are compared one by one before they are found by their text. */
const COMPARED = 4;

/**
 * The different values of one kind met so far (the parts under one key, the bodies of one
 * list). Most entries have a few per kind: comparing them (`sameJson`, which stops at the
 * first difference and at shared parts) costs less than writing each out (the schema builder
 * reading a whole snapshot wrote out 40,000 parts at 5,000 tables, 70 ms); many are named.
 */
class EqualValues<T> {
  private readonly few: T[] = [];
  private byText: Map<string, T> | null = null;

  constructor(private readonly text: (v: T) => string) {}

  /** The value met before that equals `v`, else `v`, met from now on. */
  find(v: T): T {
    if (this.byText === null) {
      for (const x of this.few) if (sameJson(x, v)) return x;
      if (this.few.length < COMPARED) {
        this.few.push(v);
        return v;
      }
      this.byText = new Map(this.few.map((x) => [this.text(x), x]));
    }
    const text = this.text(v);
    const same = this.byText.get(text);
    if (same !== undefined) return same;
    this.byText.set(text, v);
    return v;
  }
}

type PermissionList = (typeof PERMISSION_LISTS)[number];
/**
 * For each permission list with a body several items share: the index of the item whose body
 * each item has (the first that has it; its own index for the first).
 */
export type SharedBodies = Partial<Record<PermissionList, number[]>>;

/**
 * Which items of the entry's permission lists have the same body object as an earlier item: the
 * store and a snapshot update write such a body once (`tableEntryText`). At 5,000 tables × 11
 * roles a whole update went from 50 to 21 MiB (8 of them catalogs).
 */
export function sharedBodies(entry: TableMetadata): SharedBodies | null {
  let out: SharedBodies | null = null;
  for (const list of PERMISSION_LISTS) {
    const items = entry[list];
    if (!items || items.length < 2) continue;
    const firsts = items.map((item) => items.findIndex((p) => p.permission === item.permission));
    if (firsts.some((first, i) => first < i)) (out ??= {})[list] = firsts;
  }
  return out;
}

/** The entry with the bodies an earlier item has left out (null): `withSharedBodies` puts them back. */
export function withoutSharedBodies(entry: TableMetadata, shared: SharedBodies): TableMetadata {
  const out = { ...entry };
  for (const [list, firsts] of Object.entries(shared) as [PermissionList, number[]][]) {
    out[list] = entry[list]!.map((item, i) => (firsts[i]! < i ? { ...item, permission: null } : item));
  }
  return out;
}

/** Gives each item the body of the item `shared` says it has (an entry just parsed). */
export function withSharedBodies(entry: TableMetadata, shared: SharedBodies): TableMetadata {
  for (const [list, firsts] of Object.entries(shared) as [PermissionList, number[]][]) {
    const items = entry[list];
    if (!items || firsts.length !== items.length) throw new Error(`a snapshot entry's ${list} are not those its shared bodies name`);
    firsts.forEach((first, i) => {
      if (first === i) return;
      const from = items[first]?.permission;
      if (!(first < i) || typeof from !== 'object' || from === null) throw new Error(`a snapshot entry names no shared permission body at ${list}[${first}]`);
      items[i]!.permission = from;
    });
  }
  return entry;
}
