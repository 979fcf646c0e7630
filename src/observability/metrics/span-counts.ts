/**
 * `otel_sent_spans` and `otel_dropped_spans{reason}` (the well-known engine's names), read at a
 * scrape from this thread's span counts (traces/span-counts.ts): every thread that exports spans
 * registers them in its registry, and the scrape sums the threads.
 */
import { Counter, type Registry } from 'prom-client';
import { spanCounts } from '../traces/span-counts.js';
import { PREFIX } from './names.js';

export function registerSpanCounts(registry: Registry): void {
  const registers = [registry];
  new Counter({
    name: `${PREFIX}otel_sent_spans`,
    help: 'Number of spans sent to the OpenTelemetry collector',
    registers,
    collect() {
      this.reset();
      this.inc(spanCounts().sent);
    },
  });
  new Counter({
    name: `${PREFIX}otel_dropped_spans`,
    help: 'Number of spans dropped: the export queue was full, or the collector did not take them',
    labelNames: ['reason'],
    registers,
    collect() {
      this.reset();
      for (const [reason, n] of Object.entries(spanCounts().dropped)) this.inc({ reason }, n);
    },
  });
}
