/**
 * RESTified endpoints (spec "Query collection, allow-list, RESTified endpoint"): the top-level
 * `rest_endpoints` list of `{name, url, methods, definition: {query: {collection_name,
 * query_name}}, comment}`. A URL template is segments separated by `/`, a `:name` segment
 * being a parameter; two endpoints conflict when some URL matches both with a method they
 * share. Everything is checked when an endpoint is created (or a document replaced).
 */
import { Kind, parse, type OperationDefinitionNode } from 'graphql';
import { ApiError, badRequest, notExists } from '../errors/admin.js';
import { arrayOf, isObject, nonEmptyStr, ObjectReader, oneOf, str, type Json } from '../util/decode.js';
import { firstRepeat } from '../util/first-repeat.js';
import { queryCollections, type QueryCollection } from './query-collections.js';
import type { Metadata } from './types.js';

export const REST_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type RestMethod = (typeof REST_METHODS)[number];

export interface RestEndpoint {
  name: string;
  url: string;
  methods: RestMethod[];
  definition: { query: { collection_name: string; query_name: string } };
  comment?: string;
}

/** A template's segments: a literal, or a parameter (`:id` -> {param: 'id'}). */
export type UrlSegment = { literal: string } | { param: string };

export function urlSegments(url: string): UrlSegment[] {
  return url.split('/').map((s) => (s.startsWith(':') ? { param: s.slice(1) } : { literal: s }));
}

const PARAM = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A URL template: no leading or trailing `/`, no empty segment, parameters named as GraphQL variables, each once. */
function urlTemplate(v: unknown, path: string): string {
  const url = nonEmptyStr(v, path);
  const segments = urlSegments(url);
  const bad = segments.find((s) => ('literal' in s ? s.literal === '' || /[?#\s]/.test(s.literal) : !PARAM.test(s.param)));
  if (bad) throw badRequest('parse-failed', `invalid URL template ${JSON.stringify(url)}: segments are non-empty, without "?", "#" or spaces, and a parameter is ":" and a name`, path);
  const params = segments.flatMap((s) => ('param' in s ? [s.param] : []));
  const i = firstRepeat(params, (p) => p);
  if (i >= 0) throw badRequest('parse-failed', `invalid URL template ${JSON.stringify(url)}: the parameter ${JSON.stringify(params[i])} appears twice`, path);
  return url;
}

function methods(v: unknown, path: string): RestMethod[] {
  const list = arrayOf(oneOf(REST_METHODS, 'method'))(v, path);
  if (list.length === 0) throw badRequest('parse-failed', 'methods must be a non-empty list', path);
  const i = firstRepeat(list, (m) => m);
  if (i >= 0) throw badRequest('parse-failed', `the method ${list[i]} is listed more than once`, `${path}[${i}]`);
  return list;
}

function definition(v: unknown, path: string): RestEndpoint['definition'] {
  const r = ObjectReader.of(v, path);
  const query = r.required('query', (x, p) => {
    const q = ObjectReader.of(x, p);
    const out = { collection_name: q.required('collection_name', nonEmptyStr), query_name: q.required('query_name', nonEmptyStr) };
    q.done();
    return out;
  });
  r.done();
  return { query };
}

/** An endpoint's arguments, checked on their own (not yet against the document). */
export function restEndpoint(v: unknown, path: string): RestEndpoint {
  const r = ObjectReader.of(v, path);
  const e: RestEndpoint = {
    name: r.required('name', nonEmptyStr),
    url: r.required('url', urlTemplate),
    methods: r.required('methods', methods),
    definition: r.required('definition', definition),
  };
  const comment = r.optional('comment', str);
  if (comment !== undefined) e.comment = comment;
  r.done();
  return e;
}

export function restEndpoints(m: Metadata): RestEndpoint[] {
  const list = m.rest_endpoints;
  return Array.isArray(list) ? (list.filter(isObject) as unknown as RestEndpoint[]) : [];
}

export function setRestEndpoints(m: Metadata, list: RestEndpoint[]): void {
  m.rest_endpoints = list as unknown as Json;
}

/** Whether some URL matches both templates. */
function overlapping(a: string, b: string): boolean {
  const x = urlSegments(a);
  const y = urlSegments(b);
  return x.length === y.length && x.every((s, i) => 'param' in s || 'param' in y[i]! || s.literal === (y[i] as { literal: string }).literal);
}

/** The endpoint's query: its collection and query exist, and a mutation is not served on GET. */
export function endpointQuery(e: RestEndpoint, collections: readonly QueryCollection[], path: string): string {
  const { collection_name: cn, query_name: qn } = e.definition.query;
  const c = collections.find((x) => x.name === cn);
  if (!c) throw notExists(`query collection with name ${JSON.stringify(cn)} does not exist`, `${path}.definition.query.collection_name`);
  const q = c.definition.queries.find((x) => x.name === qn);
  if (!q) throw notExists(`query with name ${JSON.stringify(qn)} does not exist in collection ${JSON.stringify(cn)}`, `${path}.definition.query.query_name`);
  const ops = parse(q.query).definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  if (ops.length !== 1) throw badRequest('validation-failed', `the query ${JSON.stringify(qn)} of collection ${JSON.stringify(cn)} must have exactly one operation to be served as a REST endpoint`, `${path}.definition.query`);
  if (ops[0]!.operation === 'subscription') throw badRequest('validation-failed', `the query ${JSON.stringify(qn)} of collection ${JSON.stringify(cn)} is a subscription: it cannot be served as a REST endpoint`, `${path}.definition.query`);
  if (ops[0]!.operation === 'mutation' && e.methods.includes('GET')) {
    throw badRequest('validation-failed', `the query ${JSON.stringify(qn)} of collection ${JSON.stringify(cn)} is a mutation: it cannot be served on GET`, `${path}.methods`);
  }
  return q.query;
}

/** Refuses an endpoint whose name is taken or whose URL and methods conflict with another's. */
export function checkNewEndpoint(e: RestEndpoint, others: readonly RestEndpoint[], path: string): void {
  if (others.some((o) => o.name === e.name)) throw badRequest('already-exists', `Endpoint with name: ${e.name} already exists`, `${path}.name`);
  for (const o of others) {
    const shared = e.methods.filter((m) => o.methods.includes(m));
    if (shared.length > 0 && overlapping(e.url, o.url)) {
      throw new ApiError(400, 'conflict', `the URL ${JSON.stringify(e.url)} conflicts with ${JSON.stringify(o.url)} of endpoint ${JSON.stringify(o.name)} for ${shared.join(', ')}`, `${path}.url`);
    }
  }
}

/** The `rest_endpoints` section of a whole document, checked against its collections. */
export function restEndpointSection(v: unknown, collections: readonly QueryCollection[], path: string): RestEndpoint[] {
  const list = arrayOf(restEndpoint)(v ?? [], path);
  list.forEach((e, i) => {
    checkNewEndpoint(e, list.slice(0, i), `${path}[${i}]`);
    endpointQuery(e, collections, `${path}[${i}]`);
  });
  return list;
}

/** A RESTified endpoint as the front thread serves it: its URL template, methods and query text. */
export interface RestRoute {
  name: string;
  url: string;
  methods: string[];
  query: string;
}

/** What the front thread serves: each endpoint with its query's text (one whose query is gone is left out). */
export function restRoutes(m: Metadata): RestRoute[] {
  const collections = queryCollections(m);
  return restEndpoints(m).flatMap((e) => {
    const q = collections.find((c) => c.name === e.definition.query.collection_name)?.definition.queries.find((x) => x.name === e.definition.query.query_name);
    return q ? [{ name: e.name, url: e.url, methods: e.methods, query: q.query }] : [];
  });
}

/** The endpoints that serve a query of `collection` (`query`: that query only). */
export function endpointsUsing(m: Metadata, collection: string, query?: string): RestEndpoint[] {
  return restEndpoints(m).filter((e) => e.definition.query.collection_name === collection && (query === undefined || e.definition.query.query_name === query));
}
