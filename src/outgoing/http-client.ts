/**
 * The engine's outgoing HTTP client (event deliveries, actions, remote schemas, the auth webhook,
 * JWK sets): undici's dispatcher, whose calls cost about a third of the CPU of `node:http`'s client
 * and agent (35 against 120 µs per call, 100 at once to a local server, bench/RESULTS.md), with keep-alive
 * connections so a busy engine reuses them instead of opening one per call, an overall
 * deadline per call, a cap on the answer's size so a broken peer cannot exhaust memory, and
 * certificate verification on every HTTPS call except to the hosts of the TLS allow-list
 * (`tls-allowlist.ts`), which have a dispatcher of their own so that no connection opened without
 * verification is ever reused for another host.
 */
import type http from 'node:http';
import { Agent, type Dispatcher } from 'undici';
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
  private readonly verified: Agent;
  private readonly unverified: Agent;

  /** `maxSockets`: connections per host (the event deliveries' `SERVICE_GRAPHQL_EVENTS_HTTP_POOL_SIZE`). */
  constructor(
    private readonly timeoutMs: number,
    private readonly maxBodyBytes: number,
    private readonly tlsAllowlist: TlsAllowlist,
    maxSockets = MAX_SOCKETS_PER_HOST,
  ) {
    // The call's own deadline bounds it (`call`): no separate limit on the headers or the body.
    const options = { connections: maxSockets, headersTimeout: 0, bodyTimeout: 0 };
    this.verified = new Agent(options);
    this.unverified = new Agent({ ...options, connect: { rejectUnauthorized: false } });
  }

  private dispatcher(url: URL): Dispatcher {
    return url.protocol === 'https:' && this.tlsAllowlist.permits(url) ? this.unverified : this.verified;
  }

  /**
   * Rejects with an `Error` saying what went wrong (unreachable, timeout, answer too large).
   * `timeoutMs`: this call's deadline, when not the client's (a remote schema's `timeout_seconds`, a trigger's `timeout_sec`).
   */
  send(url: URL, request: OutgoingRequest, timeoutMs = this.timeoutMs): Promise<IncomingAnswer> {
    // Copied by a loop: V8 adds a property to a spread's copy on a slow path (about 1 µs).
    const headers: Record<string, string> = {};
    for (const name in request.headers) headers[name] = request.headers[name]!;
    headers['user-agent'] = USER_AGENT;
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

  /**
   * One call on undici's `dispatch` (callbacks, no response stream, no abort signal: the
   * `request()` form's stream and `AbortSignal` cost about as much CPU again). The deadline
   * aborts the call where it is; one still queued for a connection is answered at once and
   * dropped when it would start.
   */
  private call(url: URL, request: OutgoingRequest, headers: Record<string, string>, timeoutMs: number): Promise<IncomingAnswer> {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return Promise.reject(new Error(`unsupported protocol ${url.protocol}`));
    const limit = this.maxBodyBytes;
    return new Promise((resolve, reject) => {
      let controller: Dispatcher.DispatchController | null = null;
      let expired: Error | null = null;
      let status = 0;
      let answerHeaders: http.IncomingHttpHeaders = {};
      const chunks: Buffer[] = [];
      let size = 0;
      const fail = (e: Error) => {
        clearTimeout(deadline);
        reject(e);
      };
      const deadline = setTimeout(() => {
        expired = new Error(`no answer within ${timeoutMs} ms`);
        if (controller) controller.abort(expired);
        else fail(expired);
      }, timeoutMs);
      const options = { origin: url.origin, path: `${url.pathname}${url.search}`, method: request.method as Dispatcher.HttpMethod, headers: withUrlCredentials(url, headers), body: request.body ?? null };
      this.dispatcher(url).dispatch(options, {
        onRequestStart: (c) => {
          controller = c;
          if (expired) c.abort(expired);
        },
        onResponseStart: (_c, statusCode, received) => {
          status = statusCode;
          answerHeaders = received;
        },
        onResponseData: (c, chunk) => {
          size += chunk.length;
          if (size > limit) c.abort(new Error(`the answer exceeds ${limit} bytes`));
          else chunks.push(chunk);
        },
        onResponseEnd: () => {
          clearTimeout(deadline);
          resolve({ status, headers: nodeHeaders(answerHeaders), body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks) });
        },
        onResponseError: (_c, e) => fail(e),
      });
    });
  }

  close(): void {
    void this.verified.destroy();
    void this.unverified.destroy();
  }
}

/** Headers of which `node:http` keeps the first value when an answer repeats them (its `IncomingMessage.headers`). */
const FIRST_VALUE_ONLY = new Set(['age', 'authorization', 'content-length', 'content-type', 'etag', 'expires', 'from', 'host', 'if-modified-since', 'if-unmodified-since', 'last-modified', 'location', 'max-forwards', 'proxy-authorization', 'referer', 'retry-after', 'server', 'user-agent']);

/**
 * The answer's headers as `node:http` gives them, which the callers read: `set-cookie` always a
 * list, a repeated `cookie` joined with "; ", the headers above their first value, any other
 * repeated header joined with ", ".
 */
function nodeHeaders(headers: http.IncomingHttpHeaders): http.IncomingHttpHeaders {
  // Most answers repeat no header: undici's object is already what the callers read.
  let repeated = false;
  for (const name in headers) if (Array.isArray(headers[name]) || name === 'set-cookie') repeated = true;
  if (!repeated) return headers;
  const out: http.IncomingHttpHeaders = {};
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined) continue;
    if (name === 'set-cookie') out[name] = Array.isArray(value) ? value : [value];
    else if (!Array.isArray(value)) out[name] = value;
    else out[name] = FIRST_VALUE_ONLY.has(name) ? value[0] : value.join(name === 'cookie' ? '; ' : ', ');
  }
  return out;
}

/** A URL's `user:password@` sent as basic authentication, as `node:http` does, unless the call sets its own. */
function withUrlCredentials(url: URL, headers: Record<string, string>): Record<string, string> {
  if (url.username === '' && url.password === '') return headers;
  if (Object.keys(headers).some((name) => name.toLowerCase() === 'authorization')) return headers;
  const credentials = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
  return { ...headers, authorization: `Basic ${Buffer.from(credentials).toString('base64')}` };
}
