/**
 * Trace context in HTTP headers, both ways: W3C Trace Context (`traceparent`, `tracestate`)
 * and B3 (`b3`, or the `x-b3-*` headers on the way in). An incoming request continues its
 * caller's trace from either (W3C wins when both are there); every outgoing call carries both,
 * so that a peer reading either one joins the trace (the well-known engine always sends B3).
 */
import { defaultTextMapGetter, defaultTextMapSetter, ROOT_CONTEXT, type Context } from '@opentelemetry/api';
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
