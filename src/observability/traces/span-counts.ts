/**
 * The spans this thread exported and those it could not, as the well-known engine counts them
 * (`otel_sent_spans`, `otel_dropped_spans{reason}`): `buffer_full`, the queue of spans waiting
 * for export was full; `send_failed`, the collector did not take a batch. Plain counters, read
 * with `spanCounts()` by whoever publishes metrics (each thread that emits spans has its own).
 */
export type DropReason = 'buffer_full' | 'send_failed';

export interface SpanCounts {
  sent: number;
  dropped: Record<DropReason, number>;
}

const counts: SpanCounts = { sent: 0, dropped: { buffer_full: 0, send_failed: 0 } };

export function countSent(n: number): void {
  counts.sent += n;
}

export function countDropped(reason: DropReason, n: number): void {
  counts.dropped[reason] += n;
}

/** A copy of this thread's counts since it started. */
export const spanCounts = (): SpanCounts => ({ sent: counts.sent, dropped: { ...counts.dropped } });
