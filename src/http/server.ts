/**
 * The uWebSockets.js front: routes requests to the actors and writes their answers.
 * It never parses an admin body itself; it checks access, reads the bytes (with a
 * limit) and hands them over. Every handler sets `onAborted` before anything
 * asynchronous and writes late responses inside `cork`.
 */
import * as uws from 'uWebSockets.js';
import type { HttpRequest, HttpResponse, TemplatedApp } from 'uWebSockets.js';
import type { AdminEndpoint, AdminResponse, HealthResponse } from '../protocol/messages.js';
import { ApiError } from '../protocol/errors.js';
import { log } from '../log.js';
import { adminAccessError } from './access.js';
import { makeSecretCheck } from '../auth/admin-secret.js';
import { BodyTooLarge, readBody } from './body.js';
import { registerGraphQLRoutes, type GraphQLBackend } from './graphql.js';
import { registerGraphQLWebSocket } from './websocket.js';
import type { WsBackend } from '../graphql/ws-connection.js';

export interface Backend {
  admin(endpoint: AdminEndpoint, body: Uint8Array): Promise<AdminResponse>;
  graphql: GraphQLBackend;
  /** What a WebSocket connection runs against, given its upgrade request's headers. */
  websocket: (upgradeHeaders: Record<string, string>) => WsBackend;
  health(): Promise<HealthResponse>;
}

export interface HttpOptions {
  host: string;
  port: number;
  maxBodyBytes: number;
  adminSecrets: string[];
  version: string;
}

interface Reply {
  status: number;
  body: string;
  contentType?: string;
}

const STATUS_TEXT: Record<number, string> = {
  200: '200 OK',
  400: '400 Bad Request',
  401: '401 Unauthorized',
  404: '404 Not Found',
  405: '405 Method Not Allowed',
  409: '409 Conflict',
  413: '413 Payload Too Large',
  500: '500 Internal Server Error',
  503: '503 Service Unavailable',
};

function send(res: HttpResponse, state: { aborted: boolean }, r: Reply): void {
  if (state.aborted) return;
  res.cork(() => {
    res
      .writeStatus(STATUS_TEXT[r.status] ?? String(r.status))
      .writeHeader('Content-Type', r.contentType ?? 'application/json; charset=utf-8')
      .end(r.body);
  });
}

const errorReply = (e: ApiError): Reply => ({ status: e.status, body: JSON.stringify(e.body()) });

export function startHttp(backend: Backend, opts: HttpOptions): Promise<{ port: number; close(): void }> {
  const app: TemplatedApp = uws.App();
  const secretMatches = makeSecretCheck(opts.adminSecrets);
  const secured = opts.adminSecrets.length > 0;

  const adminRoute = (endpoint: AdminEndpoint) => (res: HttpResponse, req: HttpRequest) => {
    const state = { aborted: false };
    res.onAborted(() => {
      state.aborted = true;
    });
    const denied = adminAccessError(
      { adminSecret: req.getHeader('x-service-admin-secret'), role: req.getHeader('x-service-role') },
      secured,
      secretMatches,
    );
    if (denied) {
      // The body is not read: refuse before parsing anything.
      send(res, state, errorReply(denied));
      return;
    }
    readBody(res, opts.maxBodyBytes)
      .then((body) => backend.admin(endpoint, body))
      .then(
        (r) => send(res, state, r),
        (e: unknown) => {
          if (e instanceof BodyTooLarge) return send(res, state, { status: 413, body: JSON.stringify({ path: '$', error: e.message, code: 'bad-request' }) });
          log.error('admin request failed', { error: e instanceof Error ? e.message : String(e) });
          send(res, state, errorReply(new ApiError(503, 'unexpected', e instanceof Error ? e.message : String(e))));
        },
      );
  };

  app.post('/v1/metadata', adminRoute('v1/metadata'));
  app.post('/v1/query', adminRoute('v1/query'));
  app.post('/v2/query', adminRoute('v2/query'));

  registerGraphQLRoutes(app, backend.graphql, opts.maxBodyBytes);
  registerGraphQLWebSocket(app, backend.websocket, opts.maxBodyBytes);

  app.get('/healthz', (res) => {
    const state = { aborted: false };
    res.onAborted(() => {
      state.aborted = true;
    });
    backend.health().then(
      (h) => send(res, state, { status: h.ok ? 200 : 500, body: h.ok ? 'OK' : h.message, contentType: 'text/plain; charset=utf-8' }),
      (e: unknown) => send(res, state, { status: 500, body: String(e), contentType: 'text/plain; charset=utf-8' }),
    );
  });

  app.get('/v1/version', (res) => {
    res.cork(() => res.writeHeader('Content-Type', 'application/json; charset=utf-8').end(JSON.stringify({ version: opts.version })));
  });

  app.any('/*', (res, req) => {
    const method = req.getMethod();
    const url = req.getUrl();
    res.cork(() =>
      res
        .writeStatus(STATUS_TEXT[404]!)
        .writeHeader('Content-Type', 'application/json; charset=utf-8')
        .end(JSON.stringify({ path: '$', error: `resource does not exist: ${method.toUpperCase()} ${url}`, code: 'not-found' })),
    );
  });

  return new Promise((resolve, reject) => {
    // Exclusive: uWS would otherwise share the port (SO_REUSEPORT) with another process
    // already on it, splitting requests between two engines without a word.
    const listen = app.listen as unknown as (host: string, port: number, options: number, cb: (s: uws.us_listen_socket | false) => void) => void;
    const exclusive = (uws as unknown as { LIBUS_LISTEN_EXCLUSIVE_PORT: number }).LIBUS_LISTEN_EXCLUSIVE_PORT;
    listen.call(app, opts.host, opts.port, exclusive, (socket) => {
      if (!socket) return reject(new Error(`could not listen on ${opts.host}:${opts.port} (is the port in use?)`));
      resolve({ port: uws.us_socket_local_port(socket), close: () => uws.us_listen_socket_close(socket) });
    });
  });
}
