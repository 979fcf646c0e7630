/**
 * One object for the equal permission bodies of a table entry. Roles are often given the same
 * permission on a table word for word, and a parsed document holds a copy of it per role: at
 * 5,000 tables × 11 roles the bodies were 70 of the 100 MiB a parsed document takes, in the
 * metadata actor and again in the schema builder. Sharing them also lets resolution find the
 * permissions it already checked by identity (resolve/permissions.ts).
 */
import { sameJson } from '../util/same-json.js';
import type { JsonObject } from '../util/decode.js';
import type { TableMetadata } from './types.js';

const PERMISSION_LISTS = ['insert_permissions', 'select_permissions', 'update_permissions', 'delete_permissions'] as const;

/**
 * Makes each permission body of the entry that equals an earlier one of its list that one.
 * Only items not frozen yet are changed (an entry just parsed or decoded, before it is frozen).
 */
export function shareEqualPermissions(entry: Partial<TableMetadata>): void {
  for (const list of PERMISSION_LISTS) {
    const items = entry[list];
    if (!items || items.length < 2) continue;
    const bodies: unknown[] = [];
    for (const item of items) {
      const body = item.permission;
      const same = bodies.find((b) => sameJson(b, body));
      if (same === undefined) bodies.push(body);
      else if (!Object.isFrozen(item)) (item as JsonObject).permission = same as JsonObject;
    }
  }
}

type PermissionList = (typeof PERMISSION_LISTS)[number];
/**
 * For each permission list with a body several items share: the index of the item whose body
 * each item has (the first that has it; its own index for the first).
 */
export type SharedBodies = Partial<Record<PermissionList, number[]>>;

/**
 * Which items of the entry's permission lists have the same body object as an earlier item: a
 * snapshot update writes such a body once (snapshot.ts), as the store cannot (its entries are
 * plain metadata). At 5,000 tables × 11 roles a whole update went from 50 to 21 MiB (8 of them catalogs).
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
