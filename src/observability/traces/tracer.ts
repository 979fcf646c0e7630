/**
 * This thread's tracer: off (no span is made, no header read or written, nothing allocated)
 * until a snapshot says where spans go (`PublishedSnapshot.opentelemetry`), then each span made
 * is a `RecordedSpan` and, ended, goes into the thread's batches (`span-batches.ts`) and out
 * through the SDK's OTLP exporter (`otlp-export.ts`, loaded when a setting first turns tracing
 * on). A new setting starts new batches (the old ones are sent on their way); the same setting
 * keeps them. Every request is sampled unless its caller's context says it is not
 * (parent-based, the SDK's default). Contexts are passed explicitly: there is no context manager.
 */
import { INVALID_SPAN_CONTEXT, isSpanContextValid, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, TraceFlags, type Attributes, type Context, type Span } from '@opentelemetry/api';
import type { TracesExport } from '../../metadata/opentelemetry.js';
import { log } from '../../log.js';
import { randomId, RecordedSpan } from './recorded-span.js';
import { SpanBatches } from './span-batches.js';

export { SpanKind, type Context, type Span };

/** A stopping thread waits this long for its last spans to go. */
const CLOSE_WAIT_MS = 1_000;

class Tracing {
  private batches: SpanBatches | null = null;
  private settings: string | null = null;
  /** Statements' SQL text goes with their spans (`SERVICE_GRAPHQL_ENABLE_QUERY_TRACING`). */
  statements = false;

  get enabled(): boolean {
    return this.batches !== null;
  }

  /** Follows a snapshot's setting; null turns tracing off. */
  configure(settings: TracesExport | null): void {
    const text = settings && JSON.stringify(settings);
    if (text === this.settings) return;
    this.settings = text;
    void this.batches?.close();
    this.batches = settings && new SpanBatches(settings.maxExportBatchSize, this.loadExport(settings));
  }

  private loadExport(settings: TracesExport) {
    const loading = import('./otlp-export.js').then(({ otlpExport }) => otlpExport(settings));
    loading.catch((e: unknown) => log.error('the OpenTelemetry exporter could not be loaded: no span is sent', { error: e instanceof Error ? e.message : String(e) }));
    return loading;
  }

  /** A span under `parent` (a root span, or the caller's, when absent), or undefined when tracing is off. */
  start(name: string, parent: Context | undefined, kind: SpanKind = SpanKind.INTERNAL, attributes?: Attributes): Span | undefined {
    const batches = this.batches;
    if (!batches) return undefined;
    const caller = parent && trace.getSpanContext(parent);
    const valid = caller !== undefined && isSpanContextValid(caller);
    // Parent-based sampling: a caller that does not sample its trace gets a span that records nothing but carries the trace on.
    if (valid && !(caller.traceFlags & TraceFlags.SAMPLED)) {
      return trace.wrapSpanContext({ ...INVALID_SPAN_CONTEXT, traceId: caller.traceId, spanId: randomId(8), ...(caller.traceState ? { traceState: caller.traceState } : {}) });
    }
    return new RecordedSpan(name, kind, valid ? caller : undefined, attributes, batches);
  }

  /** Sends the spans this thread holds (before it stops), waiting for the collector a second at most. */
  async close(): Promise<void> {
    await Promise.race([this.batches?.close(), new Promise((resolve) => setTimeout(resolve, CLOSE_WAIT_MS).unref())]);
  }
}

export const traces = new Tracing();

/** The context whose current span is `span`: what its children start under. */
export const within = (span: Span): Context => trace.setSpan(ROOT_CONTEXT, span);

/** Ends a span, marked as failed when `error` is given. */
export function endSpan(span: Span | undefined, error?: unknown): void {
  if (!span) return;
  if (error !== undefined) span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
  span.end();
}
