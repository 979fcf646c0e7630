/** pg_add_computed_field, pg_drop_computed_field (and their /v1/query forms), bigquery_add_computed_field, bigquery_drop_computed_field. */
import { qualifiedKey } from '../../../catalog/types.js';
import { atArgument, notExists } from '../../../errors/admin.js';
import { bool, nonEmptyStr, ObjectReader, str, type JsonObject } from '../../../util/decode.js';
import { computedFieldDefinition } from '../../../metadata/computed-fields.js';
import { graphqlName } from '../../../metadata/names.js';
import { dropTableObject, tableObjectName } from '../../../metadata/resolve/objects.js';
import { SUCCESS, type Command } from './context.js';
import { cascadeDependents, changeOutcome } from './outcomes.js';
import { fieldExistsError, hasNamedField, putTableObject, readTableArgs, refreshUnlessResolved, tableTarget } from './table-objects.js';

/** The add command of a backend's definition form (pg's, BigQuery's). */
export const addComputedFieldWith = (definitionOf: (v: unknown, path: string) => JsonObject): Command => async (ctx, args, path) => {
  const r = ObjectReader.of(args, path);
  const at = readTableArgs(r);
  const name = r.required('name', graphqlName);
  const definition = r.required('definition', definitionOf);
  const comment = r.optional('comment', str);
  r.done();
  const target = tableTarget(ctx, at);
  // A clash with a column is reported by resolution, worded as the well-known engine does.
  if (hasNamedField(target.entry, name)) throw fieldExistsError(name, target.table, r.at('name'));
  putTableObject(target.entry, 'computed_fields', { name, definition, ...(comment !== undefined ? { comment } : {}) });
  await refreshUnlessResolved(ctx, target.source.name, (s) => s?.tables.get(qualifiedKey(target.table))?.computedFields.has(name) ?? false);
  return { metadata: ctx.metadata, response: SUCCESS, ...changeOutcome(tableObjectName('computed_field', name, target.table, target.source.name), path) };
};

export const addComputedField = addComputedFieldWith(computedFieldDefinition);

export const dropComputedField: Command = (ctx, args, path) => {
  const r = ObjectReader.of(args, path);
  const at = readTableArgs(r);
  const name = r.required('name', nonEmptyStr);
  const cascade = r.withDefault('cascade', bool, false);
  r.done();
  const target = tableTarget(ctx, at);
  if (!(target.entry.computed_fields ?? []).some((f) => f.name === name)) throw atArgument(notExists(`computed field ${JSON.stringify(name)} does not exist`, r.at('name')));
  dropTableObject(target.entry, 'computed_fields', name);
  return { metadata: ctx.metadata, response: SUCCESS, ...cascadeDependents(cascade, path) };
};
