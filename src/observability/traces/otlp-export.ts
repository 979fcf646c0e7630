/**
 * The SDK's OTLP/HTTP protobuf exporter for one setting, and the resource its spans are sent
 * with. Loaded by `tracer.ts` only when tracing is turned on: the SDK and its exporter take
 * 100-160 ms to load, which a thread that never traces should not pay at start-up.
 */
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes, type Resource } from '@opentelemetry/resources';
import type { SpanExporter } from '@opentelemetry/sdk-trace-base';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import type { TracesExport } from '../../metadata/opentelemetry.js';
import { SERVICE_NAME } from './service-name.js';

/** How long one export may take (the OTLP exporter's default). */
const EXPORT_TIMEOUT_MS = 10_000;

export interface OtlpExport {
  exporter: SpanExporter;
  resource: Resource;
}

export const otlpExport = (s: TracesExport): OtlpExport => ({
  exporter: new OTLPTraceExporter({ url: s.endpoint, headers: s.headers, timeoutMillis: EXPORT_TIMEOUT_MS }),
  resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: SERVICE_NAME, ...s.resourceAttributes }),
});
