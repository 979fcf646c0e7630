/**
 * Writing answers with uWebSockets.js. An `Exchange` is created synchronously in a handler
 * (it registers `onAborted` before any await) and writes the late answer inside `cork`, with
 * the headers every answer of the route carries (CORS).
 */
import type { HttpRequest, HttpResponse } from 'uWebSockets.js';
import type { Headers } from './cors.js';
import type { RequestsInFlight } from './in-flight.js';
import { REQUEST_ID_HEADER, requestId } from './request-id.js';
import { httpLogLevel, httpLogOn, writeHttpLog, type OperationInfo, type RequestInfo } from '../observability/logs/http-log.js';
import { logs } from '../log.js';
import { remoteAddress } from './remote-address.js';

export const JSON_TYPE = 'application/json; charset=utf-8';

const STATUS_TEXT: Record<number, string> = {
  200: '200 OK',
  204: '204 No Content',
  400: '400 Bad Request',
  401: '401 Unauthorized',
  403: '403 Forbidden',
  404: '404 Not Found',
  405: '405 Method Not Allowed',
  409: '409 Conflict',
  413: '413 Payload Too Large',
  415: '415 Unsupported Media Type',
  500: '500 Internal Server Error',
  503: '503 Service Unavailable',
};

export interface Reply {
  status: number;
  body: string;
  /** Default: JSON. */
  contentType?: string;
  headers?: Headers;
  /** The GraphQL or admin operation the request ran, for its `http-log` line (built only when that log is on). */
  operation?: OperationInfo;
}

/**
 * What the metrics count of HTTP traffic (`service_http_connections`, request and response
 * bytes); absent when metrics are off.
 */
export interface HttpMeter {
  opened(): void;
  /** Answered (or aborted: 0 bytes). */
  closed(responseBytes: number): void;
  /** A request body read. */
  received(bytes: number): void;
}

export class Exchange {
  private aborted = false;
  /** Answered or aborted: no longer in flight. */
  private ended = false;

  constructor(
    private readonly res: HttpResponse,
    /** Carried by every answer of this request. */
    private readonly headers: Headers = [],
    /** `x-request-id` of the answer ('' for none). */
    readonly requestId = '',
    /** Set when `http-log` lines are written. */
    private readonly info?: RequestInfo,
    private readonly meter: HttpMeter | null = null,
    /** Counts this request until it is answered or aborted (an answer written at once needs none). */
    private readonly inFlight?: RequestsInFlight,
  ) {
    meter?.opened();
    inFlight?.begin();
    res.onAborted(() => {
      this.aborted = true;
      this.end(0);
    });
  }

  /** The request's body was read (metrics). */
  bodyRead(bytes: number): void {
    this.meter?.received(bytes);
  }

  reply(r: Reply): void {
    if (this.aborted) return;
    // The client's address is read while the response is valid, and only for a line that is written.
    const ip = this.info && logs('http-log', httpLogLevel(r.status, r.operation)) ? remoteAddress(this.res) : null;
    this.end(this.meter ? Buffer.byteLength(r.body) : 0);
    const close = this.inFlight?.draining === true;
    this.res.cork(() => {
      this.res.writeStatus(STATUS_TEXT[r.status] ?? String(r.status));
      if (r.status !== 204) this.res.writeHeader('Content-Type', r.contentType ?? JSON_TYPE);
      for (const [k, v] of this.headers) this.res.writeHeader(k, v);
      for (const [k, v] of r.headers ?? []) this.res.writeHeader(k, v);
      if (this.requestId !== '') this.res.writeHeader(REQUEST_ID_HEADER, this.requestId);
      if (r.status === 204) this.res.endWithoutBody();
      else this.res.end(r.body, close);
    });
    if (ip !== null) writeHttpLog(this.info!, ip, r.status, r.status === 204 ? 0 : Buffer.byteLength(r.body), r.operation);
  }

  /** `bytes`: the answer's body (0 when aborted), for the metrics. */
  private end(bytes: number): void {
    if (this.ended) return;
    this.ended = true;
    this.meter?.closed(bytes);
    this.inFlight?.end();
  }
}

/**
 * The exchange of a request that has just come in (synchronously, while `req` is valid): its id
 * taken or made, and what its `http-log` line tells, when that log is on.
 */
export function openExchange(res: HttpResponse, req: HttpRequest, headers: Headers = [], meter: HttpMeter | null = null, inFlight?: RequestsInFlight): Exchange {
  const id = requestId(req.getHeader(REQUEST_ID_HEADER));
  const info = httpLogOn()
    ? { requestId: id, method: req.getMethod().toUpperCase(), url: req.getUrl(), startedAt: performance.now() }
    : undefined;
  return new Exchange(res, headers, id, info, meter, inFlight);
}
