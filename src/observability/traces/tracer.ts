/**
 * This thread's tracer: off (no span is made, no header read or written, nothing allocated)
 * until a snapshot says where spans go (`PublishedSnapshot.opentelemetry`), then the SDK's
 * provider exporting over OTLP/HTTP protobuf through `CountedExport`. A new setting replaces
 * the provider (the old one flushes what it holds in the background); the same setting keeps it.
 * Every request is sampled unless its caller's context says it is not (parent-based, the SDK's
 * default). Contexts are passed explicitly: there is no context manager.
 */
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span, type Tracer, type TracerProvider } from '@opentelemetry/api';
import type { TracesExport } from '../../metadata/opentelemetry.js';
import { log } from '../../log.js';

export { SpanKind, type Context, type Span };

/** The resource's `service.name` unless the settings' resource attributes name it otherwise. */
const SERVICE_NAME = 'service-graphql-engine';
/** A stopping thread waits this long for its last spans to go. */
const CLOSE_WAIT_MS = 1_000;

type Provider = TracerProvider & { shutdown(): Promise<void> };

class Tracing {
  private provider: Provider | null = null;
  private tracer: Tracer | null = null;
  private settings: string | null = null;
  /** Statements' SQL text goes with their spans (`SERVICE_GRAPHQL_ENABLE_QUERY_TRACING`). */
  statements = false;

  get enabled(): boolean {
    return this.tracer !== null;
  }

  /**
   * Follows a snapshot's setting; null turns tracing off. The SDK is loaded the first time a
   * setting turns tracing on (`provider.ts`), so spans begin a moment after; a newer setting that
   * comes meanwhile wins.
   */
  configure(settings: TracesExport | null): void {
    const text = settings && JSON.stringify(settings);
    if (text === this.settings) return;
    this.settings = text;
    if (!settings) return this.use(null);
    void import('./provider.js').then(
      ({ providerFor }) => this.settings === text && this.use(providerFor(settings, SERVICE_NAME)),
      (e: unknown) => log.error('the OpenTelemetry SDK could not be loaded: nothing is traced', { error: e instanceof Error ? e.message : String(e) }),
    );
  }

  private use(provider: Provider | null): void {
    const old = this.provider;
    this.provider = provider;
    this.tracer = provider?.getTracer(SERVICE_NAME) ?? null;
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

export const traces = new Tracing();

/** The context whose current span is `span`: what its children start under. */
export const within = (span: Span): Context => trace.setSpan(ROOT_CONTEXT, span);

/** Ends a span, marked as failed when `error` is given. */
export function endSpan(span: Span | undefined, error?: unknown): void {
  if (!span) return;
  if (error !== undefined) span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
  span.end();
}
