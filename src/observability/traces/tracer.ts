/**
 * This thread's tracer: off (no span is made, no header read or written, nothing allocated)
 * until a snapshot says where spans go (`PublishedSnapshot.opentelemetry`), then the SDK's
 * provider exporting over OTLP/HTTP protobuf through `CountedExport`. A new setting replaces
 * the provider (the old one flushes what it holds in the background); the same setting keeps it.
 * Every request is sampled unless its caller's context says it is not (parent-based, the SDK's
 * default). Contexts are passed explicitly: there is no context manager.
 */
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span, type Tracer } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import type { TracesExport } from '../../metadata/opentelemetry.js';
import { CountedExport } from './counted-export.js';

export { SpanKind, type Context, type Span };

/** The resource's `service.name` unless the settings' resource attributes name it otherwise. */
const SERVICE_NAME = 'service-graphql-engine';
/** The well-known engine's queue: four batches (2,048 spans for the default 512). */
const QUEUE_BATCHES = 4;
/** How long one export may take (the OTLP exporter's default). */
const EXPORT_TIMEOUT_MS = 10_000;
/** A stopping thread waits this long for its last spans to go. */
const CLOSE_WAIT_MS = 1_000;

class Tracing {
  private provider: BasicTracerProvider | null = null;
  private tracer: Tracer | null = null;
  private settings: string | null = null;
  /** Statements' SQL text goes with their spans (`SERVICE_GRAPHQL_ENABLE_QUERY_TRACING`). */
  statements = false;

  get enabled(): boolean {
    return this.tracer !== null;
  }

  /** Follows a snapshot's setting; null turns tracing off. */
  configure(settings: TracesExport | null): void {
    const text = settings && JSON.stringify(settings);
    if (text === this.settings) return;
    this.settings = text;
    const old = this.provider;
    this.provider = settings && providerFor(settings);
    this.tracer = this.provider?.getTracer(SERVICE_NAME) ?? null;
    void old?.shutdown().catch(() => {});
  }

  /** A span under `parent` (a root span, or the caller's, when absent), or undefined when tracing is off. */
  start(name: string, parent: Context | undefined, kind: SpanKind = SpanKind.INTERNAL, attributes?: Attributes): Span | undefined {
    return this.tracer?.startSpan(name, { kind, ...(attributes ? { attributes } : {}) }, parent ?? ROOT_CONTEXT);
  }

  /** Flushes the spans this thread holds (before it stops), waiting for the collector a second at most. */
  async close(): Promise<void> {
    const flushed = this.provider?.shutdown().catch(() => {});
    await Promise.race([flushed, new Promise((resolve) => setTimeout(resolve, CLOSE_WAIT_MS).unref())]);
  }
}

function providerFor(s: TracesExport): BasicTracerProvider {
  const exporter = new OTLPTraceExporter({ url: s.endpoint, headers: s.headers, timeoutMillis: EXPORT_TIMEOUT_MS });
  return new BasicTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: SERVICE_NAME, ...s.resourceAttributes }),
    spanProcessors: [new CountedExport(exporter, QUEUE_BATCHES * s.maxExportBatchSize, s.maxExportBatchSize)],
  });
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
