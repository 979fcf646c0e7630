/**
 * `/v1/graphql` over HTTP (GraphQL over HTTP: POST, and GET for queries) and
 * `/v1/graphql/explain`. Headers are read synchronously (uWS request objects die at the first
 * await), the body with its limit; the answer is written inside `cork`.
 */
import type { HttpRequest, HttpResponse, TemplatedApp } from 'uWebSockets.js';
import type { AuthFailure } from '../auth/failure.js';
import { requestSession, type Session } from '../auth/session.js';
import type { GraphQLReply } from '../graphql/service.js';
import { readRequestQuery, type GraphQLRequest } from '../graphql/request.js';
import { RequestError } from '../errors/request.js';
import { logger } from '../log.js';
import { BodyTooLarge, readBody } from './body.js';
import type { Headers } from './cors.js';
import { GRAPHQL_RESPONSE, isJsonContentType, responseMedia, type ResponseMedia } from './media.js';
import { Exchange, JSON_TYPE, type Reply } from './reply.js';
import type { RequestMeter } from '../graphql/request-meter.js';
import { endSpan, traces, within, type Context, type Span } from '../observability/traces/tracer.js';
import { endRequestSpan, requestSpan } from './request-span.js';
import { graphqlOperation } from '../observability/logs/graphql-operation.js';
import { remoteAddress } from './remote-address.js';

const log = logger('http-log');

export interface GraphQLBackend {
  /** `trace`: the request's trace context, when traced; `requestId`: for the lines it logs. */
  /** Synchronous when nothing is called (the admin secret, a JWT): no promise on the hot path. */
  authenticate(headers: Record<string, string>, body: Uint8Array | null, trace?: Context, requestId?: string): Session | AuthFailure | Promise<Session | AuthFailure>;
  /** Whether the request's credential would be a cookie. */
  usesCookie(headers: Record<string, string>): boolean;
  /** Whether sessions must carry the client's address (a rate limit counts by IP); else it is not read. */
  readsClientAddress(): boolean;
  /** A POST body: one request or a batch; `startedAt`: when it came (metrics). */
  post(session: Session, body: Uint8Array, startedAt: number): Promise<GraphQLReply>;
  /** A GET request: queries only. */
  get(session: Session, request: GraphQLRequest, startedAt: number): Promise<GraphQLReply>;
}

/** What a route needs from the server: the CORS headers of a request, and the body limit. */
export interface RouteContext {
  exchange(res: HttpResponse, req: HttpRequest, methods: string): Exchange;
  maxBodyBytes: number;
  /** GraphQL requests refused before they ran (authentication) are counted here; absent when metrics are off. */
  meter?: RequestMeter;
}

export const GRAPHQL_METHODS = 'GET, POST, OPTIONS';

export function readHeaders(req: HttpRequest): Record<string, string> {
  const headers: Record<string, string> = {};
  req.forEach((k, v) => {
    headers[k] = v;
  });
  return headers;
}

const NO_HEADERS: Headers = [];

const isFailure = (r: Session | AuthFailure): r is AuthFailure => 'status' in r && 'code' in r;

const errorsReply = (status: number, message: string, code: string, headers?: Headers): Reply => ({
  status,
  body: JSON.stringify({ errors: [{ message, extensions: { path: '$', code } }] }),
  ...(headers ? { headers } : {}),
});

function failureReply(f: AuthFailure): Reply {
  const headers: Headers = Object.entries(f.headers ?? {}).flatMap(([k, vs]) => vs.map((v): [string, string] => [k, v]));
  return errorsReply(f.status, f.message, f.code, headers);
}

/** The media type follows Accept: a cache keeps one answer per Accept value. Shared by the answers with no other header: never mutated. */
const VARY_ACCEPT: Headers = [['Vary', 'Accept']];

/**
 * GraphQL over HTTP: with `application/graphql-response+json` the status says whether the
 * request ran (200) or failed before (4xx); with `application/json` a GraphQL error is 200, as
 * the well-known engine's clients expect, and only a malformed request is not.
 */
function graphqlReply(r: GraphQLReply, media: ResponseMedia, cookies: Headers): Reply {
  const status = media === GRAPHQL_RESPONSE || r.protocolError ? r.status : 200;
  const plain = status !== 405 && cookies.length === 0 && (r.setCookies === undefined || r.setCookies.length === 0) && r.headers === undefined;
  const headers: Headers = plain
    ? VARY_ACCEPT
    : [...VARY_ACCEPT, ...(status === 405 ? [['Allow', 'POST'] as const] : []), ...cookies, ...(r.setCookies ?? []).map((c): [string, string] => ['Set-Cookie', c]), ...(r.headers ?? [])];
  return { status, body: r.body, contentType: media === GRAPHQL_RESPONSE ? `${GRAPHQL_RESPONSE}; charset=utf-8` : JSON_TYPE, headers };
}

const logged = (e: unknown): Reply => {
  if (e instanceof BodyTooLarge) return errorsReply(413, e.message, 'bad-request');
  log.error('graphql request failed', { error: e instanceof Error ? (e.stack ?? e.message) : String(e) });
  return errorsReply(500, 'internal error', 'unexpected');
};

/**
 * `span`: the request's, when traced: authentication is a span in it, and the session carries its
 * context on. `meter`: counts a request refused before it ran (absent when metrics are off).
 * `address`: the client's, when a rate limit counts by IP.
 */
async function run(
  backend: GraphQLBackend,
  address: string | undefined,
  headers: Record<string, string>,
  body: Uint8Array | null,
  media: ResponseMedia,
  requestId: string,
  meter: RequestMeter | undefined,
  execute: (s: Session, startedAt: number) => Promise<GraphQLReply>,
  span?: Span,
): Promise<Reply> {
  // The well-known engine's execution time includes authentication.
  const startedAt = meter ? performance.now() : 0;
  const trace = span && within(span);
  const authSpan = trace && traces.start('authenticate', trace);
  const authenticating = backend.authenticate(headers, body, authSpan && within(authSpan), requestId);
  const auth = authenticating instanceof Promise ? await authenticating : authenticating;
  endSpan(authSpan, isFailure(auth) ? auth.message : undefined);
  if (isFailure(auth)) {
    meter?.request('unknown', false, startedAt);
    return withOperation(failureReply(auth), null, body);
  }
  const cookies: Headers = auth.setCookies === undefined ? NO_HEADERS : auth.setCookies.map((c) => ['Set-Cookie', c]);
  // The client's headers go with the request (remote schemas with forward_client_headers), not into the cached session.
  const r = await execute(requestSession(auth, { clientHeaders: headers, requestId, trace, clientAddress: address }), startedAt);
  return withOperation(graphqlReply(r, media, cookies), auth.variables, body, r.queryHash);
}

/** The reply with what its http-log line tells of the operation (when that log is on). */
function withOperation(reply: Reply, userVars: Record<string, string> | null, body: Uint8Array | null, queryHash?: string): Reply {
  const operation = graphqlOperation(reply.body, userVars, body, queryHash);
  if (operation) reply.operation = operation;
  return reply;
}

export function registerGraphQLRoutes(app: TemplatedApp, backend: GraphQLBackend, ctx: RouteContext): void {
  app.post('/v1/graphql', (res, req) => {
    const exchange = ctx.exchange(res, req, GRAPHQL_METHODS);
    const headers = readHeaders(req);
    const media = responseMedia(headers.accept ?? '');
    // A cookie goes with requests from any site; a JSON body cannot, without a CORS preflight.
    if (backend.usesCookie(headers) && !isJsonContentType(headers['content-type'])) {
      return exchange.reply(errorsReply(415, 'a request authenticated by a cookie must have Content-Type: application/json', 'unsupported-media-type'));
    }
    const span = requestSpan('/v1/graphql', 'POST', headers, exchange.requestId);
    const address = backend.readsClientAddress() ? remoteAddress(res) : undefined;
    const answer = (r: Reply) => {
      endRequestSpan(span, r.status);
      exchange.reply(r);
    };
    readBody(res, ctx.maxBodyBytes, headers['content-length'])
      .then((body) => {
        exchange.bodyRead(body.length);
        return run(backend, address, headers, body, media, exchange.requestId, ctx.meter, (session, startedAt) => backend.post(session, body, startedAt), span);
      })
      .then(answer, (e: unknown) => answer(logged(e)));
  });

  app.get('/v1/graphql', (res, req) => {
    const exchange = ctx.exchange(res, req, GRAPHQL_METHODS);
    const headers = readHeaders(req);
    const media = responseMedia(headers.accept ?? '');
    let request: GraphQLRequest;
    try {
      request = readRequestQuery(req.getQuery() ?? '');
    } catch (e) {
      if (!(e instanceof RequestError)) throw e;
      ctx.meter?.request('unknown', false, 0);
      return exchange.reply(graphqlReply({ body: JSON.stringify({ errors: [e.body()] }), status: 400, protocolError: true }, media, []));
    }
    // A POST-mode webhook is shown the request as if it had been posted.
    const shown = Buffer.from(JSON.stringify(request));
    const span = requestSpan('/v1/graphql', 'GET', headers, exchange.requestId);
    run(backend, backend.readsClientAddress() ? remoteAddress(res) : undefined, headers, shown, media, exchange.requestId, ctx.meter, (session, startedAt) => backend.get(session, request, startedAt), span)
      .catch(logged)
      .then((r) => {
        endRequestSpan(span, r.status);
        exchange.reply(r);
      });
  });
}
