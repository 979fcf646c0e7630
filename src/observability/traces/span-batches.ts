/**
 * A thread's ended spans on their way to the collector, as the SDK's batch span processor
 * handles them: kept until a batch is full (`max_export_batch_size`) or the schedule delay
 * passes, then handed to the OTLP exporter, which sends them in the background. Every span is
 * accounted for (`span-counts.ts`): one that ends while the queue (four batches, as the
 * well-known engine's) is full of spans not yet exported is dropped (`buffer_full`), never
 * waited for; a batch the collector refuses or never answers is counted as `send_failed`.
 */
import { ExportResultCode } from '@opentelemetry/core';
import type { InstrumentationScope } from '@opentelemetry/core';
import type { Resource } from '@opentelemetry/resources';
import { log } from '../../log.js';
import type { OtlpExport } from './otlp-export.js';
import type { RecordedSpan, SpanOwner } from './recorded-span.js';
import { SERVICE_NAME } from './service-name.js';
import { countDropped, countSent, spanCounts } from './span-counts.js';

/** The well-known engine's queue: four batches (2,048 spans for the default 512). */
const QUEUE_BATCHES = 4;
/** The SDK's schedule delay, and its environment variable. */
const SCHEDULE_DELAY_MS = Number(process.env.OTEL_BSP_SCHEDULE_DELAY) || 5_000;
/** A failing collector is reported at most this often (each failure is counted). */
const WARN_EVERY_MS = 60_000;
let lastWarning = -Infinity;

export class SpanBatches implements SpanOwner {
  readonly instrumentationScope: InstrumentationScope = { name: SERVICE_NAME };
  private export: OtlpExport | null = null;
  private batch: RecordedSpan[] = [];
  /** Spans handed to the exporter whose export has not finished. */
  private sending = 0;
  private readonly exports = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | undefined;

  /** `loading`: the exporter, once the SDK is loaded (spans are kept meanwhile). */
  constructor(
    private readonly maxExportBatchSize: number,
    private readonly loading: Promise<OtlpExport>,
  ) {
    void loading.then((e) => (this.export = e)).catch(() => {});
  }

  /** Read by the exporter only, once it is loaded. */
  get resource(): Resource {
    return this.export!.resource;
  }

  ended(span: RecordedSpan): void {
    if (this.batch.length + this.sending >= QUEUE_BATCHES * this.maxExportBatchSize) return countDropped('buffer_full', 1);
    this.batch.push(span);
    if (this.batch.length >= this.maxExportBatchSize) this.send();
    else this.timer ??= setTimeout(() => this.send(), SCHEDULE_DELAY_MS).unref();
  }

  /** Sends what is kept, waits for every export under way, and shuts the exporter down. */
  async close(): Promise<void> {
    this.send();
    await Promise.all(this.exports);
    await this.export?.exporter.shutdown().catch(() => {});
  }

  private send(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const spans = this.batch;
    if (spans.length === 0) return;
    this.batch = [];
    this.sending += spans.length;
    const done = this.loading
      .then(({ exporter }) => new Promise<string | null>((resolve) => exporter.export(spans, (r) => resolve(r.code === ExportResultCode.SUCCESS ? null : (r.error?.message ?? 'unknown')))))
      .catch((e: unknown) => (e instanceof Error ? e.message : String(e)))
      .then((error) => {
        this.sending -= spans.length;
        this.exports.delete(done);
        if (error === null) countSent(spans.length);
        else exportFailed(spans.length, error);
      });
    this.exports.add(done);
  }
}

function exportFailed(n: number, error: string): void {
  countDropped('send_failed', n);
  const now = Date.now();
  if (now - lastWarning < WARN_EVERY_MS) return;
  lastWarning = now;
  const { sent, dropped } = spanCounts();
  log.warn('spans could not be sent to the OpenTelemetry collector', { error, sent, dropped });
}
