/**
 * `/api/rest/<url>`: the RESTified endpoints (spec "RESTified endpoints"). The same
 * authentication as `/v1/graphql`; the answer is the GraphQL answer's `data`, or
 * `{path, error, code}` with the error's status. Headers are read synchronously, a body only
 * when the request declares one.
 */
import type { HttpRequest, HttpResponse, TemplatedApp } from 'uWebSockets.js';
import type { AuthFailure } from '../auth/failure.js';
import { requestSession, type Session } from '../auth/session.js';
import { logger } from '../log.js';
import { BodyTooLarge, readBody } from './body.js';
import { preflightHeaders, type Headers } from './cors.js';
import type { CorsConfig } from '../config/cors.js';
import { readHeaders, type RouteContext } from './graphql.js';
import type { Reply } from './reply.js';
import { remoteAddress } from './remote-address.js';

const log = logger('http-log');

export const REST_PREFIX = '/api/rest/';
const REST_METHODS = 'GET, POST, PUT, PATCH, DELETE, OPTIONS';

/** What the front thread answers a REST call with (status and body text, plus `Allow` for a 405). */
export interface RestAnswer {
  status: number;
  body: string;
  allow?: string[];
  /** `Set-Cookie` values of the remote schemas and action handlers the call reached. */
  setCookies?: string[];
  /** A `@cached` query's `Cache-Control` and cache keys, and the rate limit's headers (`RateLimit-*`, `Retry-After`) when the role has one. */
  headers?: [string, string][];
}

export interface RestBackend {
  authenticate(headers: Record<string, string>, body: Uint8Array | null): Session | AuthFailure | Promise<Session | AuthFailure>;
  /** Whether sessions must carry the client's address (a rate limit counts by IP). */
  readsClientAddress(): boolean;
  rest(session: Session, call: { method: string; path: string; search: string; body: string | null }): Promise<RestAnswer>;
}

const isFailure = (r: Session | AuthFailure): r is AuthFailure => 'status' in r && 'code' in r;
const errorReply = (status: number, error: string, code: string, headers: Headers = []): Reply => ({ status, body: JSON.stringify({ path: '$', error, code }), headers });

export function registerRestRoutes(app: TemplatedApp, backend: RestBackend, ctx: RouteContext, cors: CorsConfig): void {
  app.any(`${REST_PREFIX}*`, (res: HttpResponse, req: HttpRequest) => {
    const method = req.getMethod().toUpperCase();
    const exchange = ctx.exchange(res, req, REST_METHODS);
    const headers = readHeaders(req);
    if (method === 'OPTIONS') {
      return exchange.reply({ status: 204, body: '', headers: [['Allow', REST_METHODS], ...preflightHeaders(cors, headers.origin ?? '', headers['access-control-request-headers'] ?? '')] });
    }
    const path = req.getUrl().slice(REST_PREFIX.length);
    const search = method === 'GET' ? (req.getQuery() ?? '') : '';
    const declared = Number(headers['content-length'] ?? '0') > 0 || headers['transfer-encoding'] !== undefined;
    const address = backend.readsClientAddress() ? remoteAddress(res) : undefined;
    const body = method !== 'GET' && declared ? readBody(res, ctx.maxBodyBytes, headers['content-length']) : Promise.resolve(null);
    body
      .then(async (bytes): Promise<Reply> => {
        if (bytes) exchange.bodyRead(bytes.length);
        const auth = await backend.authenticate(headers, bytes);
        if (isFailure(auth)) {
          const extra: Headers = Object.entries(auth.headers ?? {}).flatMap(([k, vs]) => vs.map((v): [string, string] => [k, v]));
          return errorReply(auth.status, auth.message, auth.code, extra);
        }
        const text = bytes ? Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8') : null;
        // The client's headers go with the call (remote schemas and actions that forward them), as on /v1/graphql.
        const a = await backend.rest(requestSession(auth, { clientHeaders: headers, requestId: exchange.requestId, trace: undefined, clientAddress: address }), { method, path, search, body: text });
        const cookies = [...(auth.setCookies ?? []), ...(a.setCookies ?? [])].map((c): [string, string] => ['Set-Cookie', c]);
        return { status: a.status, body: a.body, headers: [...(a.allow ? [['Allow', a.allow.join(', ')] as [string, string]] : []), ...cookies, ...(a.headers ?? [])] };
      })
      .catch((e: unknown): Reply => {
        if (e instanceof BodyTooLarge) return errorReply(413, e.message, 'bad-request');
        log.error('rest request failed', { error: e instanceof Error ? (e.stack ?? e.message) : String(e) });
        return errorReply(500, 'internal error', 'unexpected');
      })
      .then((r) => exchange.reply(r));
  });
}
