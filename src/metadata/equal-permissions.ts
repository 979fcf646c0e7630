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
 * `sameJson`), found by text, so that an entry with many roles is not compared pairwise (100
 * roles with permissions of their own took 32 s at 5,000 tables): each part is written out
 * once, and a body is named by its keys, its parts (by which one they are) and its scalars. Only
 * what is not frozen yet is changed (an entry just parsed or decoded, before it is frozen).
 */
export function shareEqualPermissions(entry: Partial<TableMetadata>): void {
  const parts = new Map<string, object>();
  const partIds = new Map<object, number>();
  for (const list of PERMISSION_LISTS) {
    const items = entry[list];
    if (!items) continue;
    const bodies = new Map<string, JsonObject>();
    const seen = new Set<unknown>();
    let last: JsonObject | undefined;
    for (const item of items) {
      const body = item.permission as JsonObject;
      // A body shared already (a snapshot entry's) is not named again.
      if (seen.has(body)) continue;
      seen.add(body);
      // Most often every role has the same body: the one before it, compared without naming it.
      let same = last !== undefined && sameJson(last, body) ? last : undefined;
      if (same === undefined) {
        const name = bodyName(body, parts, partIds);
        same = bodies.get(name);
        if (same === undefined) bodies.set(name, (last = body));
      }
      if (same !== undefined && !Object.isFrozen(item)) (item as JsonObject).permission = same;
    }
  }
}

/** A body's name (equal for equal bodies); its object and array parts made the equal ones met before (`parts`, by key and text). */
function bodyName(body: unknown, parts: Map<string, object>, partIds: Map<object, number>): string {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return JSON.stringify(body);
  const b = body as JsonObject;
  let name = '';
  for (const key of Object.keys(b)) {
    const part = b[key];
    if (typeof part !== 'object' || part === null) {
      name += `${JSON.stringify(key)}:${JSON.stringify(part)},`;
      continue;
    }
    const text = `${key}\u0000${JSON.stringify(part)}`;
    let same = parts.get(text);
    if (same === undefined) parts.set(text, (same = part));
    else if (!Object.isFrozen(b)) b[key] = same as JsonObject;
    let id = partIds.get(same);
    if (id === undefined) partIds.set(same, (id = partIds.size));
    name += `${JSON.stringify(key)}:#${id},`;
  }
  return name;
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
