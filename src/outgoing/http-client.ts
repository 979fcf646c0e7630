/**
 * The engine's outgoing HTTP client (today the auth webhook and JWK set fetches; every
 * outgoing call goes through it): keep-alive agents so a busy engine reuses connections instead
 * of opening one per request, an overall deadline per call, a cap on the answer's size so a
 * broken peer cannot exhaust memory, and certificate verification on every HTTPS call except
 * to the hosts of the TLS allow-list (`tls-allowlist.ts`), which have an agent of their own so
 * that no connection opened without verification is ever reused for another host.
 */
import http from 'node:http';
import https from 'node:https';
import type { TlsAllowlist } from './tls-allowlist.js';
import { endSpan, SpanKind, traces, within, type Context } from '../observability/traces/tracer.js';
import { injectContext } from '../observability/traces/propagation.js';

export interface OutgoingRequest {
  method: string;
  headers: Record<string, string>;
  body?: string;
  /** The call's client span, when tracing: its name and the context it runs in (none: a root span). */
  span?: { name: string; parent: Context | undefined };
}

export interface IncomingAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

const MAX_SOCKETS_PER_HOST = 64;
/** Every call names the engine, never the client's agent (as the well-known engine does). */
const USER_AGENT = 'service-graphql-engine';

export class HttpClient {
  private readonly http: http.Agent;
  private readonly https: https.Agent;
  private readonly unverifiedHttps: https.Agent;

  /** `maxSockets`: connections per host (the event deliveries' `SERVICE_GRAPHQL_EVENTS_HTTP_POOL_SIZE`). */
  constructor(
    private readonly timeoutMs: number,
    private readonly maxBodyBytes: number,
    private readonly tlsAllowlist: TlsAllowlist,
    maxSockets = MAX_SOCKETS_PER_HOST,
  ) {
    this.http = new http.Agent({ keepAlive: true, maxSockets });
    this.https = new https.Agent({ keepAlive: true, maxSockets });
    this.unverifiedHttps = new https.Agent({ keepAlive: true, maxSockets, rejectUnauthorized: false });
  }

  private transport(url: URL): { request: typeof http.request; agent: http.Agent } {
    if (url.protocol !== 'https:') return { request: http.request, agent: this.http };
    return { request: https.request, agent: this.tlsAllowlist.permits(url) ? this.unverifiedHttps : this.https };
  }

  /**
   * Rejects with an `Error` saying what went wrong (unreachable, timeout, answer too large).
   * `timeoutMs`: this call's deadline, when not the client's (a remote schema's `timeout_seconds`, a trigger's `timeout_sec`).
   */
  send(url: URL, request: OutgoingRequest, timeoutMs = this.timeoutMs): Promise<IncomingAnswer> {
    const headers = { ...request.headers, 'user-agent': USER_AGENT };
    // The URL without its query or credentials: either may carry a secret.
    const span = request.span && traces.start(request.span.name, request.span.parent, SpanKind.CLIENT, { 'http.request.method': request.method, 'url.full': `${url.origin}${url.pathname}` });
    if (!span) return this.call(url, request, headers, timeoutMs);
    // The peer continues this call's trace, whichever of W3C Trace Context or B3 it reads.
    injectContext(within(span), headers);
    return this.call(url, request, headers, timeoutMs).then(
      (answer) => {
        span.setAttribute('http.response.status_code', answer.status);
        endSpan(span, answer.status >= 500 ? `status ${answer.status}` : undefined);
        return answer;
      },
      (e: unknown) => {
        endSpan(span, e);
        throw e;
      },
    );
  }

  private call(url: URL, request: OutgoingRequest, headers: Record<string, string>, timeoutMs: number): Promise<IncomingAnswer> {
    const transport = this.transport(url);
    return new Promise((resolve, reject) => {
      const req = transport.request(url, { method: request.method, headers, agent: transport.agent }, (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > this.maxBodyBytes) req.destroy(new Error(`the answer exceeds ${this.maxBodyBytes} bytes`));
          else chunks.push(chunk);
        });
        res.on('end', () => {
          clearTimeout(deadline);
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) });
        });
        res.on('error', fail);
      });
      const deadline = setTimeout(() => req.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      const fail = (e: Error) => {
        clearTimeout(deadline);
        reject(e);
      };
      req.on('error', fail);
      req.end(request.body);
    });
  }

  close(): void {
    this.http.destroy();
    this.https.destroy();
    this.unverifiedHttps.destroy();
  }
}
