/**
 * Query collections and the allow-list (spec "Query collection, allow-list, RESTified
 * endpoint"): the top-level `query_collections` list of `{name, definition: {queries:
 * [{name, query}]}, comment}` and the `allowlist` list of `{collection, scope}`. Every
 * query is parsed when it is stored (a syntax error is refused then); validation against
 * the schema is collection-validation.ts's.
 */
import { parse } from 'graphql';
import { badRequest, parseFailed } from '../errors/admin.js';
import { arrayOf, bool, isObject, nonEmptyStr, ObjectReader, str, type Json } from '../util/decode.js';
import { firstRepeat } from '../util/first-repeat.js';
import type { Metadata } from './types.js';

export interface ListedQuery {
  name: string;
  query: string;
}

export interface QueryCollection {
  name: string;
  definition: { queries: ListedQuery[] };
  comment?: string;
}

/** An allow-list entry; its scope is stored (and exported) even when global, as the well-known engine exports `{global: true}`. */
export interface AllowlistEntry {
  collection: string;
  scope: AllowlistScope;
}

export type AllowlistScope = { global: true } | { global: false; roles: string[] };

/** The scope of an entry given without one. */
export const GLOBAL_SCOPE: AllowlistScope = { global: true };

/** A query's text, parsed: a query that is not GraphQL is refused where it is given. */
export function listedQuery(v: unknown, path: string): ListedQuery {
  const r = ObjectReader.of(v, path);
  const name = r.required('name', nonEmptyStr);
  const query = r.required('query', queryText);
  r.done();
  return { name, query };
}

export function queryText(v: unknown, path: string): string {
  const text = str(v, path);
  try {
    parse(text);
  } catch (e) {
    throw parseFailed(`not a valid graphql query: ${(e as Error).message}`, path);
  }
  return text;
}

/** `{queries: [...]}` with distinct query names (the well-known engine's `not-supported`). */
export function collectionDefinition(v: unknown, path: string): { queries: ListedQuery[] } {
  const r = ObjectReader.of(v, path);
  const queries = r.withDefault('queries', arrayOf(listedQuery), []);
  r.done();
  const names = queries.map((q) => q.name);
  const repeated = [...new Set(names.filter((n, i) => names.indexOf(n) !== i))];
  if (repeated.length > 0) throw badRequest('not-supported', `found duplicate query names ${repeated.map((n) => JSON.stringify(n)).join(', ')}`, `${path}.queries`);
  return { queries };
}

export function queryCollection(v: unknown, path: string): QueryCollection {
  const r = ObjectReader.of(v, path);
  const c: QueryCollection = { name: r.required('name', nonEmptyStr), definition: r.required('definition', collectionDefinition) };
  const comment = r.optional('comment', str);
  if (comment !== undefined) c.comment = comment;
  r.done();
  return c;
}

/**
 * `{global: true}` (the default) or `{global: false, roles: [...]}` with at least one role,
 * read as the well-known engine reads it: a scope it cannot take is a parse failure of the
 * scope object (`$.args.scope`), with its words.
 */
export function allowlistScope(v: unknown, path: string): AllowlistScope {
  const r = ObjectReader.of(v, path);
  const global = r.required('global', bool);
  const roles = global ? r.optional('roles', arrayOf(nonEmptyStr)) : r.required('roles', arrayOf(nonEmptyStr));
  r.done();
  if (global) {
    if (roles !== undefined) throw parseFailed('roles are not allowed when global is true', path);
    return GLOBAL_SCOPE;
  }
  if (!roles || roles.length === 0) throw parseFailed('parsing NonEmpty failed, unexpected empty list', `${path}.roles`);
  if (new Set(roles).size !== roles.length) throw parseFailed('duplicate roles are not allowed', path);
  return { global: false, roles };
}

export function allowlistEntry(v: unknown, path: string): AllowlistEntry {
  const r = ObjectReader.of(v, path);
  const entry: AllowlistEntry = { collection: r.required('collection', nonEmptyStr), scope: r.withDefault('scope', allowlistScope, GLOBAL_SCOPE) };
  r.done();
  return entry;
}

/** The two sections of a whole document (replace_metadata): names unique, allow-list entries naming collections. */
export function collectionSections(collectionsJson: unknown, allowlistJson: unknown, path: string): { collections: QueryCollection[]; allowlist: AllowlistEntry[] } {
  const collections = arrayOf(queryCollection)(collectionsJson ?? [], `${path}.query_collections`);
  const i = firstRepeat(collections, (c) => c.name);
  if (i >= 0) throw badRequest('already-exists', `query collection ${JSON.stringify(collections[i]!.name)} is listed more than once`, `${path}.query_collections[${i}]`);
  const allowlist = arrayOf(allowlistEntry)(allowlistJson ?? [], `${path}.allowlist`);
  const j = firstRepeat(allowlist, (e) => e.collection);
  if (j >= 0) throw badRequest('already-exists', `collection ${JSON.stringify(allowlist[j]!.collection)} is listed more than once in the allowlist`, `${path}.allowlist[${j}]`);
  const k = allowlist.findIndex((e) => !collections.some((c) => c.name === e.collection));
  if (k >= 0) throw badRequest('not-exists', `query collection with name ${JSON.stringify(allowlist[k]!.collection)} does not exist`, `${path}.allowlist[${k}].collection`);
  return { collections, allowlist };
}

export function queryCollections(m: Metadata): QueryCollection[] {
  const list = m.query_collections;
  return Array.isArray(list) ? (list.filter(isObject) as unknown as QueryCollection[]) : [];
}

export function setQueryCollections(m: Metadata, list: QueryCollection[]): void {
  m.query_collections = list as unknown as Json;
}

export function allowlist(m: Metadata): AllowlistEntry[] {
  const list = m.allowlist;
  // An entry stored before scopes were always written has none: it is global.
  return Array.isArray(list) ? list.filter(isObject).map((e) => ('scope' in e ? (e as unknown as AllowlistEntry) : { ...(e as unknown as AllowlistEntry), scope: GLOBAL_SCOPE })) : [];
}

export function setAllowlist(m: Metadata, list: AllowlistEntry[]): void {
  m.allowlist = list as unknown as Json;
}

/** An invalid query's inconsistent-object name: `query q in query collection c`. */
export const collectionQueryObjectName = (collection: string, query: string) => `query ${query} in query collection ${collection}`;
