/**
 * `/v1/graphql` and `/v1/graphql/explain`. Headers are read synchronously (uWS
 * request objects die at the first await), the body with its limit; the answer is
 * written inside `cork`.
 */
import type { HttpRequest, HttpResponse, TemplatedApp } from 'uWebSockets.js';
import type { AuthFailure } from '../auth/failure.js';
import type { Session } from '../auth/session.js';
import { log } from '../log.js';
import { BodyTooLarge, readBody } from './body.js';

export interface GraphQLBackend {
  authenticate(headers: Record<string, string>, body: Uint8Array): Promise<Session | AuthFailure>;
  /** The response body for a request or a batch. */
  execute(session: Session, body: Uint8Array): Promise<string>;
  /** `/v1/graphql/explain`: status and JSON body. */
  explain(session: Session, body: Uint8Array): Promise<{ status: number; body: string }>;
}

const STATUS: Record<number, string> = { 200: '200 OK', 400: '400 Bad Request', 401: '401 Unauthorized', 403: '403 Forbidden', 413: '413 Payload Too Large', 500: '500 Internal Server Error' };

export function readHeaders(req: HttpRequest): Record<string, string> {
  const headers: Record<string, string> = {};
  req.forEach((k, v) => {
    headers[k] = v;
  });
  return headers;
}

const isFailure = (r: Session | AuthFailure): r is AuthFailure => 'status' in r && 'code' in r;

function write(res: HttpResponse, aborted: { value: boolean }, status: number, body: string, extra: [string, string][] = []): void {
  if (aborted.value) return;
  res.cork(() => {
    res.writeStatus(STATUS[status] ?? String(status)).writeHeader('Content-Type', 'application/json; charset=utf-8');
    for (const [k, v] of extra) res.writeHeader(k, v);
    res.end(body);
  });
}

function failureReply(f: AuthFailure): { status: number; body: string; headers: [string, string][] } {
  const headers: [string, string][] = Object.entries(f.headers ?? {}).flatMap(([k, vs]) => vs.map((v): [string, string] => [k, v]));
  return { status: f.status, body: JSON.stringify({ errors: [{ message: f.message, extensions: { path: '$', code: f.code } }] }), headers };
}

export function registerGraphQLRoutes(app: TemplatedApp, backend: GraphQLBackend, maxBodyBytes: number): void {
  const route = (handle: (session: Session, body: Uint8Array) => Promise<{ status: number; body: string }>) => (res: HttpResponse, req: HttpRequest) => {
    const aborted = { value: false };
    res.onAborted(() => {
      aborted.value = true;
    });
    const headers = readHeaders(req);
    readBody(res, maxBodyBytes)
      .then(async (body) => {
        const auth = await backend.authenticate(headers, body);
        if (isFailure(auth)) {
          const r = failureReply(auth);
          return write(res, aborted, r.status, r.body, r.headers);
        }
        const cookies: [string, string][] = (auth.setCookies ?? []).map((c) => ['Set-Cookie', c]);
        const r = await handle(auth, body);
        write(res, aborted, r.status, r.body, cookies);
      })
      .catch((e: unknown) => {
        if (e instanceof BodyTooLarge) {
          return write(res, aborted, 413, JSON.stringify({ errors: [{ message: e.message, extensions: { path: '$', code: 'bad-request' } }] }));
        }
        log.error('graphql request failed', { error: e instanceof Error ? (e.stack ?? e.message) : String(e) });
        write(res, aborted, 500, JSON.stringify({ errors: [{ message: 'internal error', extensions: { path: '$', code: 'unexpected' } }] }));
      });
  };
  app.post('/v1/graphql', route(async (session, body) => ({ status: 200, body: await backend.execute(session, body) })));
  app.post('/v1/graphql/explain', route((session, body) => backend.explain(session, body)));
}
