/**
 * Inconsistency records for objects defined on a table (relationships, computed
 * fields, permissions), named and worded as the well-known engine does:
 * `array_relation articles in table author in source default`, reason
 * `Inconsistent object: in table "author": in relationship "articles": ...`.
 */
import type { QualifiedName } from '../../catalog/types.js';
import type { Json, JsonObject } from '../../util/decode.js';
import { sameTable, showTable } from '../names.js';
import type { Metadata, TableMetadata } from '../types.js';
import type { Inconsistency } from './types.js';

/** The lists of a table entry that hold named objects, and the key that names them. */
export const TABLE_OBJECT_LISTS = {
  object_relationships: 'name',
  array_relationships: 'name',
  computed_fields: 'name',
  insert_permissions: 'role',
  select_permissions: 'role',
  update_permissions: 'role',
  delete_permissions: 'role',
} as const;

export type TableObjectList = keyof typeof TABLE_OBJECT_LISTS;

function findTableEntry(m: Metadata, source: string, table: QualifiedName): TableMetadata | undefined {
  return m.sources.find((s) => s.name === source)?.tables.find((t) => sameTable(t.table, table));
}

/** Removes one named object from a table entry's list (no-op when it is not there). */
export function dropTableObject(entry: TableMetadata, list: TableObjectList, name: string): void {
  const items = entry[list];
  if (items) entry[list] = items.filter((o) => o[TABLE_OBJECT_LISTS[list]] !== name);
}

function removeTableObject(m: Metadata, source: string, table: QualifiedName, list: TableObjectList, name: string): void {
  const entry = findTableEntry(m, source, table);
  if (entry) dropTableObject(entry, list, name);
}

/** The context the well-known engine prefixes to a table object's error: `in table "t": in relationship "r": `. */
export function tableObjectContext(table: QualifiedName, what: string, name: string): string {
  return `in table ${JSON.stringify(showTable(table))}: in ${what} ${JSON.stringify(name)}: `;
}

export interface TableObjectRef {
  source: string;
  table: QualifiedName;
  list: TableObjectList;
  /** `object_relation`, `select_permission`, `computed_field`, ... */
  type: string;
  /** The object's name (a role for permissions). */
  name: string;
  /** The stored object, as in the table entry. */
  stored: JsonObject;
}

/** `{source, table, ...stored, comment}`: how an inconsistent table object shows its definition. */
function tableObjectDefinition(ref: TableObjectRef): Json {
  return { source: ref.source, table: ref.table as unknown as Json, ...ref.stored, comment: ref.stored.comment ?? null };
}

/** `array_relation articles in table author in source default` */
export const tableObjectName = (type: string, name: string, table: QualifiedName, source: string) =>
  `${type} ${name} in table ${showTable(table)} in source ${source}`;

/**
 * The reason an object does not resolve. An error of another kind than `expected` is a
 * stored object of a shape no command makes (an older or hand-edited store row): it
 * makes that one object inconsistent instead of failing the whole resolution (and so
 * every request, or the boot).
 */
export function unresolvable(e: unknown, expected: abstract new (...args: never[]) => Error): string {
  if (e instanceof expected) return e.message;
  return `the stored definition cannot be used (${e instanceof Error ? e.message : String(e)})`;
}

export function tableObjectInconsistency(ref: TableObjectRef, reason: string): Inconsistency {
  return {
    object: {
      type: ref.type,
      name: tableObjectName(ref.type, ref.name, ref.table, ref.source),
      definition: tableObjectDefinition(ref),
      reason: `Inconsistent object: ${reason}`,
    },
    remove: (m) => removeTableObject(m, ref.source, ref.table, ref.list, ref.name),
  };
}
