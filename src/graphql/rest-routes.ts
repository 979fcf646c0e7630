/**
 * RESTified endpoints on the front thread (spec "RESTified endpoints"): the snapshot header's
 * endpoints as routes, and a request's GraphQL variables from its URL parameters, its query
 * string (GET) and its JSON body. Values that come as text (URL and query string) are
 * coerced to the type of the variable they fill, as the well-known engine does; JSON body
 * values are taken as they are. The GraphQL work is the facade's (service.ts).
 */
import { Kind, parse, type OperationDefinitionNode, type TypeNode } from 'graphql';
import { RequestError } from '../errors/request.js';
import { urlSegments, type UrlSegment } from '../metadata/rest-endpoints.js';
import type { RestRoute } from '../metadata/rest-endpoints.js';
import { isObject } from '../util/decode.js';
import type { GraphQLRequest } from './request.js';

interface CompiledRoute {
  route: RestRoute;
  segments: UrlSegment[];
  /** Each declared variable's named type, and whether it is a list. */
  variables: Map<string, { type: string; list: boolean }>;
}

export type RestMatch = { kind: 'found'; route: CompiledRoute; params: Record<string, string> } | { kind: 'method-not-allowed'; allowed: string[] } | { kind: 'not-found' };

function namedType(t: TypeNode): { type: string; list: boolean } {
  if (t.kind === Kind.NON_NULL_TYPE) return namedType(t.type);
  if (t.kind === Kind.LIST_TYPE) return { type: namedType(t.type).type, list: true };
  return { type: t.name.value, list: false };
}

function compile(route: RestRoute): CompiledRoute {
  const op = parse(route.query).definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  const variables = new Map((op?.variableDefinitions ?? []).map((d) => [d.variable.name.value, namedType(d.type)]));
  return { route, segments: urlSegments(route.url), variables };
}

/** A text value as the variable's type reads it; a value that does not fit is left as text (validation names it). */
function coerce(text: string, spec: { type: string; list: boolean } | undefined): unknown {
  if (!spec) return text;
  const json = () => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  };
  if (spec.list) return json();
  switch (spec.type) {
    case 'Int':
      return /^-?\d+$/.test(text) ? Number(text) : text;
    case 'Float':
      return text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : text;
    case 'Boolean':
      return text === 'true' ? true : text === 'false' ? false : text;
    case 'String':
    case 'ID':
      return text;
    default:
      // Other scalars (numbers, JSON, timestamps...), enums and input objects: JSON when it is JSON.
      return /^[[{"]/.test(text) || /^-?\d/.test(text) ? json() : text;
  }
}

/** A path segment's text; null when its percent-encoding is malformed (no endpoint matches it). */
function decoded(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

export class RestRoutes {
  private routes: CompiledRoute[] = [];
  private key = '[]';

  /** Takes a snapshot's endpoints (compiled again only when they changed). */
  update(routes: readonly RestRoute[]): void {
    const key = JSON.stringify(routes);
    if (key === this.key) return;
    this.key = key;
    this.routes = routes.map(compile);
  }

  match(method: string, path: string): RestMatch {
    const parts = path.split('/');
    const allowed: string[] = [];
    for (const r of this.routes) {
      if (r.segments.length !== parts.length) continue;
      const params: Record<string, string> = {};
      const fits = r.segments.every((s, i) => {
        if ('literal' in s) return s.literal === parts[i];
        const value = decoded(parts[i]!);
        if (value === null || value === '') return false;
        params[s.param] = value;
        return true;
      });
      if (!fits) continue;
      if ((r.route.methods as string[]).includes(method)) return { kind: 'found', route: r, params };
      allowed.push(...r.route.methods);
    }
    return allowed.length > 0 ? { kind: 'method-not-allowed', allowed } : { kind: 'not-found' };
  }
}

/**
 * The GraphQL request of a matched endpoint: the JSON body's fields, then the query string's
 * parameters (GET), then the URL's parameters (the most specific wins).
 */
export function restRequest(route: CompiledRoute, params: Record<string, string>, search: string, body: string | null): GraphQLRequest {
  const variables: Record<string, unknown> = {};
  if (body !== null && body.trim() !== '') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      throw new RequestError('the request body is not valid JSON', '$', 'invalid-json');
    }
    if (!isObject(parsed)) throw new RequestError('the request body must be a JSON object of variables', '$', 'bad-request');
    Object.assign(variables, parsed);
  }
  for (const [k, v] of new URLSearchParams(search)) variables[k] = coerce(v, route.variables.get(k));
  for (const [k, v] of Object.entries(params)) variables[k] = coerce(v, route.variables.get(k));
  return { query: route.route.query, operationName: null, variables };
}
