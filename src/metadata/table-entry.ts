/**
 * The relationships, computed fields and permissions of a table entry in a whole
 * document (replace_metadata), brought to stored form: as their commands store them,
 * each list sorted by name as the well-known engine exports it.
 */
import { badRequest } from '../errors/admin.js';
import { arrayOf, type JsonObject, type ObjectReader } from '../util/decode.js';
import { computedFieldEntry } from './computed-fields.js';
import { storedEventTrigger } from './event-triggers.js';
import { permissionEntries } from './permissions.js';
import { relationshipEntry } from './relationships.js';
import { TABLE_OBJECT_LISTS, type TableObjectList } from './resolve/objects.js';
import type { TableMetadata } from './types.js';
import { firstRepeat } from '../util/first-repeat.js';
import { shareEqualPermissions } from './equal-permissions.js';

const DECODERS: Record<TableObjectList, (v: unknown, path: string) => JsonObject[]> = {
  object_relationships: arrayOf(relationshipEntry('object')),
  array_relationships: arrayOf(relationshipEntry('array')),
  computed_fields: arrayOf(computedFieldEntry),
  insert_permissions: permissionEntries('insert'),
  select_permissions: permissionEntries('select'),
  update_permissions: permissionEntries('update'),
  delete_permissions: permissionEntries('delete'),
};

export function tableObjects(r: ObjectReader): Partial<TableMetadata> {
  const out: Partial<TableMetadata> = {};
  for (const list of Object.keys(DECODERS) as TableObjectList[]) {
    const items = r.optional(list, DECODERS[list]);
    if (!items) continue;
    const key = TABLE_OBJECT_LISTS[list];
    const i = firstRepeat(items, (item) => item[key]);
    if (i >= 0) throw badRequest('already-exists', `${list} has more than one entry for ${JSON.stringify(items[i]![key])}`, `${r.at(list)}[${i}]`);
    out[list] = items.sort((a, b) => (String(a[key]) < String(b[key]) ? -1 : 1));
  }
  shareEqualPermissions(out);
  const triggers = r.optional('event_triggers', arrayOf(storedEventTrigger));
  if (triggers) {
    const i = firstRepeat(triggers, (t) => t.name);
    if (i >= 0) throw badRequest('already-exists', `event_triggers has more than one entry for ${JSON.stringify(triggers[i]!.name)}`, `${r.at('event_triggers')}[${i}]`);
    out.event_triggers = triggers.sort((a, b) => (String(a.name) < String(b.name) ? -1 : 1));
  }
  return out;
}
