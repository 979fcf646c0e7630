/**
 * The SDK's batch span processor with every span accounted for (`span-counts.ts`): a span
 * ended while the spans already handed over and not yet exported fill the queue is dropped
 * here (`buffer_full`), never waited for; a batch the collector refuses or never answers is
 * counted as `send_failed`. Exports run in the background on the OTLP exporter's own timeout,
 * so a slow or unreachable collector never holds a request.
 */
import type { Context } from '@opentelemetry/api';
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import { BatchSpanProcessor, type ReadableSpan, type Span, type SpanExporter, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { log } from '../../log.js';
import { countDropped, countSent, spanCounts } from './span-counts.js';

/** A failing collector is reported at most this often (each failure is counted). */
const WARN_EVERY_MS = 60_000;
let lastWarning = -Infinity;

export class CountedExport implements SpanProcessor {
  private readonly batches: BatchSpanProcessor;
  /** Spans handed to the batch processor whose export has not finished. */
  private pending = 0;

  constructor(
    exporter: SpanExporter,
    private readonly maxQueueSize: number,
    maxExportBatchSize: number,
  ) {
    const counting: SpanExporter = {
      export: (spans: ReadableSpan[], done: (r: ExportResult) => void) =>
        exporter.export(spans, (r) => {
          this.pending -= spans.length;
          if (r.code === ExportResultCode.SUCCESS) countSent(spans.length);
          else exportFailed(spans.length, r.error);
          done(r);
        }),
      shutdown: () => exporter.shutdown(),
      forceFlush: () => exporter.forceFlush?.() ?? Promise.resolve(),
    };
    this.batches = new BatchSpanProcessor(counting, { maxQueueSize, maxExportBatchSize });
  }

  onStart(span: Span, parent: Context): void {
    this.batches.onStart(span, parent);
  }

  onEnd(span: ReadableSpan): void {
    if (this.pending >= this.maxQueueSize) return countDropped('buffer_full', 1);
    this.pending++;
    this.batches.onEnd(span);
  }

  forceFlush(): Promise<void> {
    return this.batches.forceFlush();
  }

  shutdown(): Promise<void> {
    return this.batches.shutdown();
  }
}

function exportFailed(n: number, error: Error | undefined): void {
  countDropped('send_failed', n);
  const now = Date.now();
  if (now - lastWarning < WARN_EVERY_MS) return;
  lastWarning = now;
  const { sent, dropped } = spanCounts();
  log.warn('spans could not be sent to the OpenTelemetry collector', { error: error?.message ?? 'unknown', sent, dropped });
}
