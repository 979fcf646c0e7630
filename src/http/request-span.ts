/**
 * The span of an HTTP request (a server span named by its path, with its `request_id`),
 * continuing the caller's trace when its headers carry one; none while tracing is off, when
 * the front thread reads no trace header at all.
 */
import { callerContext } from '../observability/traces/propagation.js';
import { endSpan, SpanKind, traces, type Span } from '../observability/traces/tracer.js';

/** `requestId`: the request's (`x-request-id`, request-id.ts). */
export function requestSpan(path: string, method: string, headers: Record<string, string>, requestId: string): Span | undefined {
  if (!traces.enabled) return undefined;
  return traces.start(path, callerContext(headers), SpanKind.SERVER, { 'http.request.method': method, 'url.path': path, request_id: requestId });
}

/** Ends a request's span with the status it answered. */
export function endRequestSpan(span: Span | undefined, status: number): void {
  if (!span) return;
  span.setAttribute('http.response.status_code', status);
  endSpan(span, status >= 500 ? `status ${status}` : undefined);
}
