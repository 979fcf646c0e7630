/**
 * add_collection_to_allowlist, drop_collection_from_allowlist,
 * update_scope_of_collection_in_allowlist (spec "Query collections and allow-list"). A
 * collection on the allow-list has its queries validated against the schema
 * (collection-validation.ts): adding one with an invalid query fails with its reason.
 */
import { atArgument, badRequest } from '../../../errors/admin.js';
import { nonEmptyStr, ObjectReader } from '../../../util/decode.js';
import { allowlist, allowlistScope, GLOBAL_SCOPE, setAllowlist, type AllowlistEntry, type AllowlistScope } from '../../../metadata/query-collections.js';
import { SUCCESS, type Command } from './context.js';
import { collectionOutcome, existingCollection } from './query-collections.js';

const notListed = (name: string, path: string) => atArgument(badRequest('not-found', `collection ${JSON.stringify(name)} doesn't exist in the allowlist`, path));

const withScope = (collection: string, scope: AllowlistScope): AllowlistEntry => ({ collection, scope });

/** A collection already listed keeps its scope, as in the well-known engine (success, with a message saying so). */
export const addCollectionToAllowlist: Command = (ctx, args, path) => {
  const r = ObjectReader.of(args, path);
  const name = r.required('collection', nonEmptyStr);
  const scope = r.withDefault('scope', allowlistScope, GLOBAL_SCOPE);
  r.done();
  existingCollection(ctx.metadata, name, r.at('collection'));
  const list = allowlist(ctx.metadata);
  if (list.some((e) => e.collection === name)) {
    return {
      metadata: null,
      response: { message: `collection ${JSON.stringify(name)} already exists in the allowlist, scope ignored; to change scope, use update_scope_of_collection_in_allowlist` },
    };
  }
  setAllowlist(ctx.metadata, [...list, withScope(name, scope)]);
  return { metadata: ctx.metadata, response: SUCCESS, ...collectionOutcome(name, path) };
};

export const dropCollectionFromAllowlist: Command = (ctx, args, path) => {
  const r = ObjectReader.of(args, path);
  const name = r.required('collection', nonEmptyStr);
  r.done();
  const list = allowlist(ctx.metadata);
  if (!list.some((e) => e.collection === name)) throw notListed(name, r.at('collection'));
  setAllowlist(ctx.metadata, list.filter((e) => e.collection !== name));
  return { metadata: ctx.metadata, response: SUCCESS };
};

export const updateScopeOfCollectionInAllowlist: Command = (ctx, args, path) => {
  const r = ObjectReader.of(args, path);
  const name = r.required('collection', nonEmptyStr);
  const scope = r.required('scope', allowlistScope);
  r.done();
  const list = allowlist(ctx.metadata);
  if (!list.some((e) => e.collection === name)) throw notListed(name, r.at('collection'));
  setAllowlist(ctx.metadata, list.map((e) => (e.collection === name ? withScope(name, scope) : e)));
  return { metadata: ctx.metadata, response: SUCCESS };
};
