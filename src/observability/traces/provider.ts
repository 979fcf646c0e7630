/**
 * The SDK's tracer provider for one setting: exporting over OTLP/HTTP protobuf through
 * `CountedExport`. Loaded by `tracer.ts` only when tracing is turned on: the SDK and its exporter
 * take 100-160 ms to load, which a thread that never traces should not pay at start-up.
 */
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import type { TracesExport } from '../../metadata/opentelemetry.js';
import { CountedExport } from './counted-export.js';

/** The well-known engine's queue: four batches (2,048 spans for the default 512). */
const QUEUE_BATCHES = 4;
/** How long one export may take (the OTLP exporter's default). */
const EXPORT_TIMEOUT_MS = 10_000;

export function providerFor(s: TracesExport, serviceName: string): BasicTracerProvider {
  const exporter = new OTLPTraceExporter({ url: s.endpoint, headers: s.headers, timeoutMillis: EXPORT_TIMEOUT_MS });
  return new BasicTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: serviceName, ...s.resourceAttributes }),
    spanProcessors: [new CountedExport(exporter, QUEUE_BATCHES * s.maxExportBatchSize, s.maxExportBatchSize)],
  });
}
