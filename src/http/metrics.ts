/**
 * `GET /v1/metrics` (the `metrics` API): Prometheus' text exposition of every thread's metrics.
 * With `SERVICE_GRAPHQL_METRICS_SECRET` set, a scrape must carry `Authorization: Bearer <secret>`
 * (compared in constant time), else 401; without it the endpoint is open, as the well-known
 * engine's is (its docs ask for a secret and say why: docs/behaviour.md "Metrics").
 */
import type { HttpRequest, HttpResponse, TemplatedApp } from 'uWebSockets.js';
import { makeSecretCheck } from '../auth/admin-secret.js';
import type { Exchange } from './reply.js';

export interface MetricsBackend {
  scrape(): Promise<string>;
  contentType: string;
}

const unauthorized = (error: string) => ({ status: 401, body: JSON.stringify({ path: '$', error, code: 'access-denied' }) });

/** `exchange`: the server's (its request id, CORS headers and requests in flight), not counted in the metrics it serves. */
export function registerMetricsRoute(app: TemplatedApp, backend: MetricsBackend, secret: string | undefined, exchange: (res: HttpResponse, req: HttpRequest) => Exchange): void {
  const matches = secret === undefined ? null : makeSecretCheck([secret]);
  app.get('/v1/metrics', (res, req) => {
    const ex = exchange(res, req);
    if (matches) {
      const auth = /^Bearer (.+)$/i.exec(req.getHeader('authorization'));
      if (!auth) return ex.reply(unauthorized('the metrics endpoint needs "Authorization: Bearer <metrics secret>"'));
      if (!matches(auth[1]!)) return ex.reply(unauthorized('invalid metrics secret'));
    }
    backend.scrape().then(
      (text) => ex.reply({ status: 200, body: text, contentType: backend.contentType }),
      (e: unknown) => ex.reply({ status: 500, body: JSON.stringify({ path: '$', error: e instanceof Error ? e.message : String(e), code: 'unexpected' }) }),
    );
  });
}
