/**
 * The uWebSockets.js front: routes requests to the actors and writes their answers.
 * It never parses an admin body itself; it checks access, reads the bytes (with a
 * limit) and hands them over. Every handler sets `onAborted` before anything
 * asynchronous (an `Exchange`) and writes late responses inside `cork`.
 */
import * as uws from 'uWebSockets.js';
import type { HttpRequest, HttpResponse, TemplatedApp } from 'uWebSockets.js';
import type { AdminEndpoint, AdminResponse, HealthResponse, SourceHealth } from '../protocol/messages.js';
import { ApiError } from '../errors/admin.js';
import { logger } from '../log.js';
import { adminAccessError, queryAccessError, requestSessionVariables, type AdminHeaders } from './access.js';
import { makeSecretCheck } from '../auth/admin-secret.js';
import { BodyTooLarge, readBody } from './body.js';
import { corsHeaders, preflightHeaders } from './cors.js';
import type { CorsConfig } from '../config/cors.js';
import { GRAPHQL_METHODS, readHeaders, registerGraphQLRoutes, type GraphQLBackend, type RouteContext } from './graphql.js';
import { openExchange, type HttpMeter, type Reply } from './reply.js';
import { registerGraphQLWebSocket, type OpenWebSockets, type WsMeter } from './websocket.js';
import { registerMetricsRoute, type MetricsBackend } from './metrics.js';
import type { RequestMeter } from '../graphql/request-meter.js';
import { RequestsInFlight } from './in-flight.js';
import { drainFront, type FrontDrained } from './drain.js';
import { registerRestRoutes, type RestBackend } from './rest.js';
import type { WsBackend } from '../graphql/ws-connection.js';
import type { EnabledApi } from '../config/config.js';
import type { ConsoleAsset } from './console-assets.js';
import { registerConsoleRoutes } from './console.js';

const log = logger('http-log');

export interface Backend {
  /** `session`: the caller's session variables (`requestSessionVariables`). */
  admin(endpoint: AdminEndpoint, body: Uint8Array, session: Record<string, string>): Promise<AdminResponse>;
  graphql: GraphQLBackend;
  /** `/api/rest/...`: the RESTified endpoints. */
  rest: RestBackend['rest'];
  /** `POST /pro/cache/clear` (admin only): the response cache's entry of `key`, the entries of `family`, or all. */
  clearCache(what: { key?: string; family?: string }): Promise<{ status: number; body: string }>;
  /** `/v1/graphql/explain`, for an admin (access is checked here). */
  explain(body: Uint8Array): Promise<{ status: number; body: string }>;
  /** What a WebSocket connection runs against, given its upgrade request's headers. */
  /** `address`: the client's IP address (its sessions carry it: rate limits by IP). */
  websocket: (upgradeHeaders: Record<string, string>, address: string) => WsBackend;
  health(): Promise<HealthResponse>;
  /** `POST /v1alpha1/pg_dump` (the `pgdump` API, admin only): `pg_dump`'s text, or an admin error. */
  pgDump(body: Uint8Array): Promise<Reply>;
  /** `/healthz/sources` (admin only): each source's health. */
  sourcesHealth(): Promise<Record<string, SourceHealth>>;
  /** `/dev/...` (the `developer` API, admin only). */
  developer: {
    /** Each multiplexer actor's live queries, cohorts and subscribers. */
    subscriptions(): Promise<unknown>;
    /** Restarts the multiplexer actors as a crash would (their subscribers are kept). */
    restartSubscriptions(): Promise<void>;
    /** The front thread's plan cache. */
    planCache(): unknown;
    /** Each multiplexer actor's live queries, cohorts and subscribers, with the totals. */
    subscriptionsExtended(): Promise<unknown>;
  };
  /** `/v1/metrics` and what it counts (the `metrics` API; absent: off). */
  metrics?: MetricsBackend & { secret: string | undefined; http: HttpMeter; websocket: WsMeter; requests: RequestMeter };
}

export interface HttpOptions {
  host: string;
  port: number;
  /** `/v1/graphql` (and explain) bodies and WebSocket messages. */
  maxBodyBytes: number;
  /** `/v1/metadata`, `/v1/query` and `/v2/query` bodies (a metadata document can be large). */
  adminMaxBodyBytes: number;
  adminSecrets: string[];
  cors: CorsConfig;
  /** A WebSocket whose unsent data passes this is closed. */
  websocketMaxBufferedBytes: number;
  version: string;
  /** The route groups served (`SERVICE_GRAPHQL_ENABLED_APIS`); the others answer 404. */
  enabledApis: Set<EnabledApi>;
  /** `GET /v1alpha1/config`'s body (the `config` API). */
  configBody: string;
  /** The console's files (`/console`); absent: the console is off. */
  consoleAssets?: Map<string, ConsoleAsset>;
}

const ADMIN_METHODS = 'POST, OPTIONS';
const GET_METHODS = 'GET, OPTIONS';
const TEXT = 'text/plain; charset=utf-8';

/**
 * `/healthz` as the well-known engine answers it: `OK`; `WARN: inconsistent objects in schema`
 * (200, or 500 as `ERROR: ...` with `strict=true`); `ERROR` (500) when the metadata store cannot be
 * reached (the reason goes to the log, not to whoever probes).
 */
function healthReply(h: HealthResponse, strict: boolean): Reply {
  if (!h.ok) {
    log.warn('health check failed', { error: h.message });
    return { status: 500, body: 'ERROR', contentType: TEXT };
  }
  if (!h.inconsistent) return { status: 200, body: 'OK', contentType: TEXT };
  return strict ? { status: 500, body: 'ERROR: inconsistent objects in schema', contentType: TEXT } : { status: 200, body: 'WARN: inconsistent objects in schema', contentType: TEXT };
}

const errorReply = (e: ApiError): Reply => ({ status: e.status, body: JSON.stringify(e.body()) });

/** The running front. */
export interface Front {
  port: number;
  /** Closes the listening socket: new connections are refused. */
  close(): void;
  /** Answers what is in flight, by `deadline` (`drain.ts`). */
  drain(deadline: number): Promise<FrontDrained>;
}

export function startHttp(backend: Backend, opts: HttpOptions): Promise<Front> {
  const app: TemplatedApp = uws.App();
  const secretMatches = makeSecretCheck(opts.adminSecrets);
  const secured = opts.adminSecrets.length > 0;
  const requests = new RequestsInFlight();
  let sockets: OpenWebSockets | undefined;
  // `/healthz` and `/v1/version` are not counted, as the well-known engine counts neither.
  const unmetered = (res: HttpResponse, req: HttpRequest, methods: string) => openExchange(res, req, corsHeaders(opts.cors, req.getHeader('origin'), methods), null, requests);
  const httpMeter = backend.metrics?.http ?? null;
  const exchange = (res: HttpResponse, req: HttpRequest, methods: string) => openExchange(res, req, corsHeaders(opts.cors, req.getHeader('origin'), methods), httpMeter, requests);

  type AccessCheck = (h: AdminHeaders, secured: boolean, matches: (s: string) => boolean) => ApiError | null;
  const accessDenied = (req: HttpRequest, check: AccessCheck = adminAccessError) =>
    check({ adminSecret: req.getHeader('x-service-admin-secret'), role: req.getHeader('x-service-role') }, secured, secretMatches);

  /**
   * An administration route: the admin secret and role are checked before the body is read (and
   * the session read, while `req` is valid); `check` says who may call it (admin only, by default).
   */
  const adminRoute = (limit: number, handle: (body: Uint8Array, session: Record<string, string>, query: URLSearchParams) => Promise<Reply>, check?: AccessCheck) => (res: HttpResponse, req: HttpRequest) => {
    const ex = exchange(res, req, ADMIN_METHODS);
    const denied = accessDenied(req, check);
    if (denied) return ex.reply(errorReply(denied));
    const session = requestSessionVariables(readHeaders(req));
    const query = new URLSearchParams(req.getQuery() ?? '');
    readBody(res, limit, req.getHeader('content-length'))
      .then((body) => (ex.bodyRead(body.length), handle(body, session, query)))
      .then(
        (r) => ex.reply(r),
        (e: unknown) => {
          if (e instanceof BodyTooLarge) return ex.reply({ status: 413, body: JSON.stringify({ path: '$', error: e.message, code: 'bad-request' }) });
          log.error('admin request failed', { error: e instanceof Error ? e.message : String(e) });
          ex.reply(errorReply(new ApiError(503, 'unexpected', e instanceof Error ? e.message : String(e))));
        },
      );
  };
  /** An admin-only GET route (the `developer` API). */
  const adminGet = (handle: () => Promise<Reply>) => (res: HttpResponse, req: HttpRequest) => {
    const ex = exchange(res, req, GET_METHODS);
    const denied = accessDenied(req);
    if (denied) return ex.reply(errorReply(denied));
    handle().then(
      (r) => ex.reply(r),
      (e: unknown) => ex.reply(errorReply(new ApiError(503, 'unexpected', e instanceof Error ? e.message : String(e)))),
    );
  };
  const preflight = (methods: string) => (res: HttpResponse, req: HttpRequest) => {
    const origin = req.getHeader('origin');
    openExchange(res, req, corsHeaders(opts.cors, origin, methods)).reply({
      status: 204,
      body: '',
      headers: [['Allow', methods], ...preflightHeaders(opts.cors, origin, req.getHeader('access-control-request-headers'))],
    });
  };

  if (opts.enabledApis.has('metadata')) {
    for (const endpoint of ['v1/metadata', 'v1/query', 'v2/query'] as const) {
      // `/v1/query` also serves a role its data operations (the metadata actor refuses it the rest).
      const check = endpoint === 'v1/query' ? queryAccessError : adminAccessError;
      app.post(`/${endpoint}`, adminRoute(opts.adminMaxBodyBytes, (body, session) => backend.admin(endpoint, body, session), check));
      app.options(`/${endpoint}`, preflight(ADMIN_METHODS));
    }
  }
  if (opts.enabledApis.has('graphql')) {
    app.post('/v1/graphql/explain', adminRoute(opts.maxBodyBytes, (body) => backend.explain(body)));
    app.options('/v1/graphql/explain', preflight(ADMIN_METHODS));
    // The well-known engine's path for its response cache (`?key=`, `?family=`, else everything).
    const cleared = (q: URLSearchParams) => ({ ...(q.has('key') ? { key: q.get('key')! } : {}), ...(q.has('family') ? { family: q.get('family')! } : {}) });
    app.post('/pro/cache/clear', adminRoute(opts.maxBodyBytes, (_body, _session, query) => backend.clearCache(cleared(query))));
    app.options('/pro/cache/clear', preflight(ADMIN_METHODS));
    const routes: RouteContext = { exchange, maxBodyBytes: opts.maxBodyBytes, ...(backend.metrics ? { meter: backend.metrics.requests } : {}) };
    registerGraphQLRoutes(app, backend.graphql, routes);
    app.options('/v1/graphql', preflight(GRAPHQL_METHODS));
    registerRestRoutes(app, { authenticate: backend.graphql.authenticate, readsClientAddress: backend.graphql.readsClientAddress, rest: backend.rest }, routes, opts.cors);
    sockets = registerGraphQLWebSocket(
      app,
      backend.websocket,
      {
        cors: opts.cors,
        maxMessageBytes: opts.maxBodyBytes,
        maxBufferedBytes: opts.websocketMaxBufferedBytes,
        ...(backend.metrics ? { meter: backend.metrics.websocket } : {}),
      },
      requests,
    );
  }
  if (opts.enabledApis.has('developer')) {
    const json = (value: unknown): Reply => ({ status: 200, body: JSON.stringify(value) });
    app.get('/dev/subscriptions', adminGet(async () => json(await backend.developer.subscriptions())));
    app.post('/dev/subscriptions/restart', adminRoute(opts.maxBodyBytes, async () => (await backend.developer.restartSubscriptions(), json({ message: 'success' }))));
    app.get('/dev/subscriptions/extended', adminGet(async () => json(await backend.developer.subscriptionsExtended())));
    app.get('/dev/plan_cache', adminGet(async () => json(backend.developer.planCache())));
  }
  if (opts.enabledApis.has('pgdump')) {
    app.post('/v1alpha1/pg_dump', adminRoute(opts.adminMaxBodyBytes, (body) => backend.pgDump(body)));
    app.options('/v1alpha1/pg_dump', preflight(ADMIN_METHODS));
  }
  if (opts.enabledApis.has('config')) {
    app.get('/v1alpha1/config', adminGet(async () => ({ status: 200, body: opts.configBody })));
  }

  if (opts.enabledApis.has('metrics') && backend.metrics) registerMetricsRoute(app, backend.metrics, backend.metrics.secret, (res, req) => unmetered(res, req, GET_METHODS));

  app.get('/healthz', (res, req) => {
    const ex = unmetered(res, req, GET_METHODS);
    const strict = new URLSearchParams(req.getQuery() ?? '').get('strict') === 'true';
    backend.health().then(
      (h) => ex.reply(healthReply(h, strict)),
      (e: unknown) => (log.error('health check failed', { error: String(e) }), ex.reply(healthReply({ ok: false, message: String(e) }, strict))),
    );
  });
  // The well-known engine's source health report; it cannot be switched off.
  app.get('/healthz/sources', adminGet(async () => ({ status: 200, body: JSON.stringify(await backend.sourcesHealth()) })));

  app.get('/v1/version', (res, req) => {
    unmetered(res, req, GET_METHODS).reply({ status: 200, body: JSON.stringify({ version: opts.version }) });
  });

  if (opts.consoleAssets) registerConsoleRoutes(app, opts.consoleAssets, { adminSecretSet: secured });

  app.any('/*', (res, req) => {
    const method = req.getMethod();
    const url = req.getUrl();
    openExchange(res, req).reply({ status: 404, body: JSON.stringify({ path: '$', error: `resource does not exist: ${method.toUpperCase()} ${url}`, code: 'not-found' }) });
  });

  return new Promise((resolve, reject) => {
    // Exclusive: uWS would otherwise share the port (SO_REUSEPORT) with another process
    // already on it, splitting requests between two engines without a word.
    const listen = app.listen as unknown as (host: string, port: number, options: number, cb: (s: uws.us_listen_socket | false) => void) => void;
    const exclusive = (uws as unknown as { LIBUS_LISTEN_EXCLUSIVE_PORT: number }).LIBUS_LISTEN_EXCLUSIVE_PORT;
    listen.call(app, opts.host, opts.port, exclusive, (socket) => {
      if (!socket) return reject(new Error(`could not listen on ${opts.host}:${opts.port} (is the port in use?)`));
      resolve({ port: uws.us_socket_local_port(socket), close: () => uws.us_listen_socket_close(socket), drain: (deadline) => drainFront(requests, sockets, deadline) });
    });
  });
}
