/**
 * Writing answers with uWebSockets.js. An `Exchange` is created synchronously in a handler
 * (it registers `onAborted` before any await) and writes the late answer inside `cork`, with
 * the headers every answer of the route carries (CORS).
 */
import type { HttpRequest, HttpResponse } from 'uWebSockets.js';
import type { Headers } from './cors.js';
import { REQUEST_ID_HEADER, requestId } from './request-id.js';
import { httpLogOn, writeHttpLog, type OperationInfo, type RequestInfo } from '../observability/logs/http-log.js';

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

export class Exchange {
  private aborted = false;

  constructor(
    private readonly res: HttpResponse,
    /** Carried by every answer of this request. */
    private readonly headers: Headers = [],
    /** `x-request-id` of the answer ('' for none). */
    readonly requestId = '',
    /** Set when `http-log` lines are written. */
    private readonly info?: RequestInfo,
  ) {
    res.onAborted(() => {
      this.aborted = true;
    });
  }

  reply(r: Reply): void {
    if (this.aborted) return;
    this.res.cork(() => {
      this.res.writeStatus(STATUS_TEXT[r.status] ?? String(r.status));
      if (r.status !== 204) this.res.writeHeader('Content-Type', r.contentType ?? JSON_TYPE);
      for (const [k, v] of this.headers) this.res.writeHeader(k, v);
      for (const [k, v] of r.headers ?? []) this.res.writeHeader(k, v);
      if (this.requestId !== '') this.res.writeHeader(REQUEST_ID_HEADER, this.requestId);
      if (r.status === 204) this.res.endWithoutBody();
      else this.res.end(r.body);
    });
    if (this.info) writeHttpLog(this.info, r.status, r.status === 204 ? 0 : Buffer.byteLength(r.body), r.operation);
  }
}

/**
 * The exchange of a request that has just come in (synchronously, while `req` is valid): its id
 * taken or made, and what its `http-log` line tells, when that log is on.
 */
export function openExchange(res: HttpResponse, req: HttpRequest, headers: Headers = []): Exchange {
  const id = requestId(req.getHeader(REQUEST_ID_HEADER));
  const info = httpLogOn()
    ? { requestId: id, method: req.getMethod().toUpperCase(), url: req.getUrl(), ip: Buffer.from(res.getRemoteAddressAsText()).toString(), startedAt: performance.now() }
    : undefined;
  return new Exchange(res, headers, id, info);
}
