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
