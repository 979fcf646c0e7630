/**
 * pg_create_object_relationship, pg_create_array_relationship, pg_drop_relationship,
 * pg_set_relationship_comment, pg_rename_relationship (and their /v1/query forms).
 */
import { qualifiedKey } from '../../../catalog/types.js';
import { notExists } from '../../../errors/admin.js';
import { bool, nonEmptyStr, ObjectReader, str, type JsonObject } from '../../../util/decode.js';
import { graphqlName } from '../../../metadata/names.js';
import { relationshipUsing } from '../../../metadata/relationships.js';
import { renameRelationshipReferences } from '../../../metadata/renames.js';
import type { RelationshipKind } from '../../../metadata/resolve/types.js';
import { dropTableObject, tableObjectName } from '../../../metadata/resolve/objects.js';
import { SUCCESS, type Command } from './context.js';
import { cascadeDependents, changeOutcome } from './outcomes.js';
import { fieldExistsError, hasColumn, hasNamedField, putTableObject, readTableArgs, refreshUnlessResolved, tableTarget, type TableTarget } from './table-objects.js';

const LISTS = { object: 'object_relationships', array: 'array_relationships' } as const;

export function createRelationship(kind: RelationshipKind): Command {
  return async (ctx, args, path) => {
    const r = ObjectReader.of(args, path);
    const at = readTableArgs(r);
    const name = r.required('name', graphqlName);
    const using = r.required('using', relationshipUsing(kind));
    const comment = r.optional('comment', str);
    r.done();
    const target = tableTarget(ctx, at);
    if (hasColumn(ctx, target, name) || hasNamedField(target.entry, name)) throw fieldExistsError(name, target.table, path);
    putTableObject(target.entry, LISTS[kind], { name, using, ...(comment !== undefined ? { comment } : {}) });
    await refreshUnlessResolved(ctx, target.source.name, (s) => s?.tables.get(qualifiedKey(target.table))?.relationships.has(name) ?? false);
    return { metadata: ctx.metadata, response: SUCCESS, ...changeOutcome(tableObjectName(`${kind}_relation`, name, target.table, target.source.name), path) };
  };
}

/** The stored relationship of that name on the table, with its kind. */
function findRelationship(target: TableTarget, name: string, path: string): { kind: RelationshipKind; stored: JsonObject } {
  for (const kind of ['object', 'array'] as const) {
    const stored = (target.entry[LISTS[kind]] ?? []).find((x) => x.name === name);
    if (stored) return { kind, stored };
  }
  throw notExists(`relationship ${JSON.stringify(name)} does not exist`, path);
}

export const dropRelationship: Command = (ctx, args, path) => {
  const r = ObjectReader.of(args, path);
  const at = readTableArgs(r);
  const name = r.required('relationship', nonEmptyStr);
  const cascade = r.withDefault('cascade', bool, false);
  r.done();
  const target = tableTarget(ctx, at);
  const { kind } = findRelationship(target, name, r.at('relationship'));
  dropTableObject(target.entry, LISTS[kind], name);
  return { metadata: ctx.metadata, response: SUCCESS, ...cascadeDependents(cascade, path) };
};

/** `relationship` names the relationship; the documented example sends it as `name`. */
export const setRelationshipComment: Command = (ctx, args, path) => {
  const r = ObjectReader.of(args, path);
  const at = readTableArgs(r);
  const key = r.has('relationship') || !r.has('name') ? 'relationship' : 'name';
  const name = r.required(key, nonEmptyStr);
  const comment = r.optional('comment', str);
  r.done();
  const target = tableTarget(ctx, at);
  const { stored } = findRelationship(target, name, r.at(key));
  if (comment === undefined) delete stored.comment;
  else stored.comment = comment;
  return { metadata: ctx.metadata, response: SUCCESS };
};

export const renameRelationship: Command = (ctx, args, path) => {
  const r = ObjectReader.of(args, path);
  const at = readTableArgs(r);
  const name = r.required('name', nonEmptyStr);
  const newName = r.required('new_name', graphqlName);
  r.done();
  const target = tableTarget(ctx, at);
  const { kind, stored } = findRelationship(target, name, r.at('name'));
  if (newName === name) return { metadata: null, response: SUCCESS };
  if (hasColumn(ctx, target, newName) || hasNamedField(target.entry, newName)) throw fieldExistsError(newName, target.table, r.at('new_name'));
  renameRelationshipReferences(ctx.metadata, target.source.name, target.table, name, newName, ctx.introspection(target.source.name) ?? null);
  stored.name = newName;
  putTableObject(target.entry, LISTS[kind], stored);
  return { metadata: ctx.metadata, response: SUCCESS, ...changeOutcome(tableObjectName(`${kind}_relation`, newName, target.table, target.source.name), path) };
};
