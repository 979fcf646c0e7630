/**
 * create_query_collection, rename_query_collection, drop_query_collection,
 * add_query_to_collection, drop_query_from_collection (spec "Query collections and
 * allow-list"), with the well-known engine's messages and codes.
 */
import { alreadyExists, atArgument, badRequest, notExists } from '../../../errors/admin.js';
import { bool, isObject, nonEmptyStr, ObjectReader } from '../../../util/decode.js';
import {
  allowlist,
  queryCollection,
  queryCollections,
  queryText,
  setAllowlist,
  setQueryCollections,
  type QueryCollection,
} from '../../../metadata/query-collections.js';
import { endpointsUsing, restEndpoints, setRestEndpoints, type RestEndpoint } from '../../../metadata/rest-endpoints.js';
import type { Metadata } from '../../../metadata/types.js';
import { SUCCESS, type Command, type CommandResult } from './context.js';
import { changeOutcome } from './outcomes.js';

const missing = (name: string, path: string) => atArgument(notExists(`query collection with name ${JSON.stringify(name)} does not exist`, path));

/** The collection of that name, or a `not-exists` error at `path` (the argument naming it). */
export function existingCollection(m: Metadata, name: string, path: string): QueryCollection {
  const c = queryCollections(m).find((x) => x.name === name);
  if (!c) throw missing(name, path);
  return c;
}

/**
 * A change that leaves a query of `collection` invalid (on the allow-list or behind a REST endpoint) fails with
 * that query's reason; other new inconsistencies with the generic answer.
 */
export function collectionOutcome(collection: string, path: string): Pick<CommandResult, 'inconsistencyError'> {
  return changeOutcome((o) => o.type === 'query_collection' && isObject(o.definition) && o.definition.collection === collection, path);
}

/** A collection (or one of its queries) that a REST endpoint serves stays until the endpoint goes, `cascade` or not. */
function refuseUsedByEndpoints(m: Metadata, collection: string, query: string | undefined, path: string): void {
  const users = endpointsUsing(m, collection, query);
  if (users.length === 0) return;
  const what = query === undefined ? `query collection ${JSON.stringify(collection)}` : `query ${JSON.stringify(query)} of query collection ${JSON.stringify(collection)}`;
  throw badRequest('dependency-error', `cannot drop ${what}: it is used by the REST endpoint(s) ${users.map((e) => JSON.stringify(e.name)).join(', ')}`, path);
}

function replaceCollection(m: Metadata, name: string, next: QueryCollection | null): void {
  setQueryCollections(m, queryCollections(m).flatMap((c) => (c.name !== name ? [c] : next ? [next] : [])));
}

export const createQueryCollection: Command = (ctx, args, path) => {
  const c = queryCollection(args, path);
  if (queryCollections(ctx.metadata).some((x) => x.name === c.name)) throw atArgument(alreadyExists(`query collection with name ${JSON.stringify(c.name)} already exists`, `${path}.name`));
  setQueryCollections(ctx.metadata, [...queryCollections(ctx.metadata), c]);
  return { metadata: ctx.metadata, response: SUCCESS, ...collectionOutcome(c.name, path) };
};

/** The allow-list and the REST endpoints follow the new name. */
export const renameQueryCollection: Command = (ctx, args, path) => {
  const r = ObjectReader.of(args, path);
  const name = r.required('name', nonEmptyStr);
  const newName = r.required('new_name', nonEmptyStr);
  r.done();
  const c = existingCollection(ctx.metadata, name, r.at('name'));
  if (queryCollections(ctx.metadata).some((x) => x.name === newName)) throw alreadyExists(`query collection with name ${JSON.stringify(newName)} already exists`, r.at('new_name'));
  replaceCollection(ctx.metadata, name, { ...c, name: newName });
  setAllowlist(ctx.metadata, allowlist(ctx.metadata).map((e) => (e.collection === name ? { ...e, collection: newName } : e)));
  const moved = (e: RestEndpoint): RestEndpoint => ({ ...e, definition: { query: { ...e.definition.query, collection_name: newName } } });
  setRestEndpoints(ctx.metadata, restEndpoints(ctx.metadata).map((e) => (e.definition.query.collection_name === name ? moved(e) : e)));
  return { metadata: ctx.metadata, response: SUCCESS, ...collectionOutcome(newName, path) };
};

/** Without `cascade`, a collection on the allow-list stays (dependency-error); with it, its entry goes too. */
export const dropQueryCollection: Command = (ctx, args, path) => {
  const r = ObjectReader.of(args, path);
  const name = r.required('collection', nonEmptyStr);
  const cascade = r.required('cascade', bool);
  r.done();
  existingCollection(ctx.metadata, name, r.at('collection'));
  refuseUsedByEndpoints(ctx.metadata, name, undefined, r.at('collection'));
  const listed = allowlist(ctx.metadata).some((e) => e.collection === name);
  if (listed && !cascade) {
    throw badRequest(
      'dependency-error',
      `query collection with name ${JSON.stringify(name)} is present in the allowlist; cannot proceed to drop. please use cascade to confirm you wish to drop it from the allowlist as well`,
      r.at('collection'),
    );
  }
  replaceCollection(ctx.metadata, name, null);
  if (listed) setAllowlist(ctx.metadata, allowlist(ctx.metadata).filter((e) => e.collection !== name));
  return { metadata: ctx.metadata, response: SUCCESS };
};

export const addQueryToCollection: Command = (ctx, args, path) => {
  const r = ObjectReader.of(args, path);
  const name = r.required('collection_name', nonEmptyStr);
  const queryName = r.required('query_name', nonEmptyStr);
  const query = r.required('query', queryText);
  r.ignore('comment').done();
  const c = existingCollection(ctx.metadata, name, r.at('collection_name'));
  if (c.definition.queries.some((q) => q.name === queryName)) {
    throw alreadyExists(`query with name ${JSON.stringify(queryName)} already exists in collection ${JSON.stringify(name)}`, r.at('query_name'));
  }
  replaceCollection(ctx.metadata, name, { ...c, definition: { queries: [...c.definition.queries, { name: queryName, query }] } });
  return { metadata: ctx.metadata, response: SUCCESS, ...collectionOutcome(name, path) };
};

export const dropQueryFromCollection: Command = (ctx, args, path) => {
  const r = ObjectReader.of(args, path);
  const name = r.required('collection_name', nonEmptyStr);
  const queryName = r.required('query_name', nonEmptyStr);
  r.done();
  const c = existingCollection(ctx.metadata, name, r.at('collection_name'));
  if (!c.definition.queries.some((q) => q.name === queryName)) {
    throw badRequest('not-found', `query with name ${JSON.stringify(queryName)} not found in collection ${JSON.stringify(name)}`, r.at('query_name'));
  }
  refuseUsedByEndpoints(ctx.metadata, name, queryName, r.at('query_name'));
  replaceCollection(ctx.metadata, name, { ...c, definition: { queries: c.definition.queries.filter((q) => q.name !== queryName) } });
  return { metadata: ctx.metadata, response: SUCCESS };
};
