/**
 * Trace context in HTTP headers, both ways: W3C Trace Context (`traceparent`, `tracestate`)
 * and B3 (`b3`, or the `x-b3-*` headers on the way in). An incoming request continues its
 * caller's trace from either (W3C wins when both are there); every outgoing call carries both,
 * so that a peer reading either one joins the trace (the well-known engine always sends B3).
 */
import { defaultTextMapGetter, defaultTextMapSetter, ROOT_CONTEXT, trace, TraceFlags, type Context } from '@opentelemetry/api';
import { CompositePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { B3Propagator } from '@opentelemetry/propagator-b3';

// Extractors run in order, each over the last: W3C, listed last, wins.
const propagator = new CompositePropagator({ propagators: [new B3Propagator(), new W3CTraceContextPropagator()] });

/** The caller's trace context from a request's headers (lower-case names); the root context when it has none. */
export const callerContext = (headers: Record<string, string>): Context => propagator.extract(ROOT_CONTEXT, headers, defaultTextMapGetter);

/** Adds the headers that carry `context`'s span to an outgoing call's headers. */
export function injectContext(context: Context, headers: Record<string, string>): void {
  propagator.inject(context, headers, defaultTextMapSetter);
}

/** An event's `trace_context` (the well-known engine's: hex ids of the span that made the change). */
export interface EventTraceContext {
  trace_id: string;
  span_id: string;
}

/** The ids of `context`'s span, as an event records them; undefined when untraced. */
export function eventTraceContext(context: Context | undefined): EventTraceContext | undefined {
  const span = context && trace.getSpanContext(context);
  return span ? { trace_id: span.traceId, span_id: span.spanId } : undefined;
}

const TRACE_ID = /^[0-9a-f]{32}$/;
const SPAN_ID = /^[0-9a-f]{16}$/;

/** The context continuing an event's recorded trace (its delivery's span joins it); undefined when it has none or a malformed one. */
export function eventParent(recorded: unknown): Context | undefined {
  const r = recorded as Partial<EventTraceContext> | null | undefined;
  if (!r || typeof r.trace_id !== 'string' || typeof r.span_id !== 'string' || !TRACE_ID.test(r.trace_id) || !SPAN_ID.test(r.span_id)) return undefined;
  return trace.setSpanContext(ROOT_CONTEXT, { traceId: r.trace_id, spanId: r.span_id, traceFlags: TraceFlags.SAMPLED, isRemote: true });
}
