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
/** Item `item` of list `list` has the body of item `sameAs` (an earlier one), the same object. */
export type SharedBody = [list: PermissionList, item: number, sameAs: number];

/**
 * The items of the entry's permission lists whose body is the same object as an earlier item's:
 * a snapshot update writes such a body once (snapshot.ts), as the store cannot (its entries are
 * plain metadata). At 5,000 tables × 11 roles a whole update went from 50 to 14 MiB.
 */
export function sharedBodies(entry: TableMetadata): SharedBody[] {
  const out: SharedBody[] = [];
  for (const list of PERMISSION_LISTS) {
    const items = entry[list];
    if (!items || items.length < 2) continue;
    items.forEach((item, i) => {
      const first = items.findIndex((p) => p.permission === item.permission);
      if (first < i) out.push([list, i, first]);
    });
  }
  return out;
}

/** The entry with the bodies `shared` names left out (null): `withSharedBodies` puts them back. */
export function withoutSharedBodies(entry: TableMetadata, shared: SharedBody[]): TableMetadata {
  const out = { ...entry };
  for (const [list, i] of shared) {
    const items = (out[list] = out[list] === entry[list] ? [...entry[list]!] : out[list]!);
    items[i] = { ...items[i]!, permission: null };
  }
  return out;
}

/** Gives each item `shared` names the body of the item it names (an entry just parsed). */
export function withSharedBodies(entry: TableMetadata, shared: SharedBody[]): TableMetadata {
  for (const [list, i, sameAs] of shared) {
    const items = entry[list];
    const from = items?.[sameAs]?.permission;
    if (!items?.[i] || sameAs >= i || typeof from !== 'object' || from === null) throw new Error(`a snapshot entry names no shared permission body at ${list}[${sameAs}]`);
    items[i].permission = from;
  }
  return entry;
}
