/**
 * The parameters of a GraphQL request (GraphQL over HTTP, "Request Parameters"): from a JSON
 * POST body (one request or a batch), a GET query string, or a WebSocket payload. A value of
 * the wrong type is a `RequestError` with the JSON path of the parameter.
 */
import { RequestError } from '../errors/request.js';
import { tooDeepAt, tooDeepMessage } from '../util/nesting.js';
import { isObject } from '../util/decode.js';

export interface GraphQLRequest {
  /** Null when only a persisted query's hash came (`persisted-queries.ts` finds the document). */
  query: string | null;
  operationName: string | null;
  variables: Record<string, unknown>;
  /** `extensions.persistedQuery.sha256Hash` (automatic persisted queries), lower-case hex. */
  persistedQuery?: string;
}

const absent = (v: unknown) => v === undefined || v === null;

/** `extensions.persistedQuery`: `{version: 1, sha256Hash}`, the only version Apollo's clients send. */
function persistedQueryHash(extensions: Record<string, unknown>, path: string): string | undefined {
  const pq = extensions.persistedQuery;
  if (absent(pq)) return undefined;
  const at = `${path}.extensions.persistedQuery`;
  if (!isObject(pq)) throw new RequestError('"persistedQuery" must be an object', at, 'parse-failed');
  if (pq.version !== 1) throw new RequestError('PersistedQueryNotSupported: only version 1 of persisted queries is supported', `${at}.version`, 'PERSISTED_QUERY_NOT_SUPPORTED');
  if (typeof pq.sha256Hash !== 'string' || !/^[0-9a-fA-F]{64}$/.test(pq.sha256Hash)) throw new RequestError('"sha256Hash" must be a SHA-256 hash in hexadecimal', `${at}.sha256Hash`, 'parse-failed');
  return pq.sha256Hash.toLowerCase();
}

export function readRequest(v: unknown, path: string): GraphQLRequest {
  if (!isObject(v)) throw new RequestError('expected a JSON object with "query"', path, 'parse-failed');
  // Before anything recursive reads the variables (the nesting limit, docs/behaviour.md).
  const deep = tooDeepAt(v, path);
  if (deep) throw new RequestError(tooDeepMessage, deep, 'parse-failed');
  if (!absent(v.extensions) && !isObject(v.extensions)) throw new RequestError('"extensions" must be an object', `${path}.extensions`, 'parse-failed');
  const persistedQuery = isObject(v.extensions) ? persistedQueryHash(v.extensions, path) : undefined;
  const hashOnly = persistedQuery !== undefined && absent(v.query);
  if (typeof v.query !== 'string' && !hashOnly) throw new RequestError(v.query === undefined ? 'the key "query" was not present' : '"query" must be a string', `${path}.query`, 'parse-failed');
  if (!absent(v.operationName) && typeof v.operationName !== 'string') throw new RequestError('"operationName" must be a string', `${path}.operationName`, 'parse-failed');
  if (!absent(v.variables) && !isObject(v.variables)) throw new RequestError('"variables" must be an object', `${path}.variables`, 'parse-failed');
  const req: GraphQLRequest = { query: hashOnly ? null : (v.query as string), operationName: (v.operationName as string | null | undefined) ?? null, variables: (v.variables as Record<string, unknown> | null | undefined) ?? {} };
  if (persistedQuery !== undefined) req.persistedQuery = persistedQuery;
  return req;
}

function parseJson(text: string, path: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new RequestError(path === '$' ? 'the request body is not valid JSON' : `${path.slice(2)} is not valid JSON`, path, 'invalid-json');
  }
}

/** A POST body: one request, or a batch (a JSON array) of them. Every parameter is checked before anything runs. */
export function readRequestBody(body: Uint8Array): GraphQLRequest | GraphQLRequest[] {
  const parsed = parseJson(Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8'), '$');
  return Array.isArray(parsed) ? parsed.map((r, i) => readRequest(r, `$[${i}]`)) : readRequest(parsed, '$');
}

/** A GET request's query string (`query`, and `variables`/`extensions` as URL-encoded JSON text). */
export function readRequestQuery(search: string): GraphQLRequest {
  const params = new URLSearchParams(search);
  const json = (name: string) => {
    const text = params.get(name);
    return text === null || text === '' ? undefined : parseJson(text, `$.${name}`);
  };
  return readRequest({ query: params.get('query') ?? undefined, operationName: params.get('operationName') || undefined, variables: json('variables'), extensions: json('extensions') }, '$');
}
