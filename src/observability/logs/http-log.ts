/**
 * `http-log` lines: one per HTTP request once it is answered, in the well-known engine's shape
 * (`detail.request_id`, `detail.operation` for GraphQL and admin requests, `detail.http_info`).
 * Written on the front thread by the `Exchange` that answers the request.
 */
import { logs, writeLog } from '../../log.js';

/** What is known of a request when it comes in (read while uWS's request object is valid). */
export interface RequestInfo {
  requestId: string;
  method: string;
  url: string;
  /** `performance.now()` when it came in. */
  startedAt: number;
}

/** The GraphQL (or admin) operation a request ran: `detail.operation` beside the timing and size. */
export interface OperationInfo {
  user_vars: Record<string, string> | null;
  error: unknown;
  /** The request itself, only when it failed (as upstream: a successful query is not logged here). */
  query: unknown;
  parameterized_query_hash?: string;
}

/** Whether an http-log line could be written at all: the rest of the request's info is gathered only then. */
export const httpLogOn = (): boolean => logs('http-log', 'error');

/** The level of a request's line: `error` when it failed (a 4xx/5xx, or a GraphQL error), else `info`. */
export const httpLogLevel = (status: number, operation: OperationInfo | undefined): 'error' | 'info' =>
  status >= 400 || (operation !== undefined && operation.error !== null) ? 'error' : 'info';

/** `ip`: the client's address, read only for a line that is written (a successful request's is not, below level `info`). */
export function writeHttpLog(info: RequestInfo, ip: string, status: number, responseSize: number, operation: OperationInfo | undefined): void {
  const seconds = (performance.now() - info.startedAt) / 1000;
  writeLog('http-log', httpLogLevel(status, operation), {
    request_id: info.requestId,
    operation: {
      query_execution_time: seconds,
      user_vars: operation?.user_vars ?? null,
      error: operation?.error ?? null,
      request_id: info.requestId,
      response_size: responseSize,
      query: operation?.query ?? null,
      ...(operation?.parameterized_query_hash ? { parameterized_query_hash: operation.parameterized_query_hash } : {}),
    },
    http_info: { status, http_version: 'HTTP/1.1', url: info.url, ip, method: info.method, content_encoding: null },
  });
}
