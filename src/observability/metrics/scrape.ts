/**
 * A scrape of `/v1/metrics`: the front thread's registry and each actor's metrics (asked as
 * `protocol/metrics.ts` says) summed into one text exposition. An actor that does not answer
 * (restarting) is left out of this scrape rather than failing it.
 */
import { AggregatorRegistry } from 'prom-client';
import type { MetricsJson } from '../../protocol/metrics.js';
import { log } from '../../log.js';

export const METRICS_CONTENT_TYPE = AggregatorRegistry.PROMETHEUS_CONTENT_TYPE;

export async function scrapeMetrics(front: Promise<MetricsJson>, actors: Promise<MetricsJson[]>[]): Promise<string> {
  const answers = await Promise.allSettled(actors);
  const parts: MetricsJson[] = [await front];
  for (const a of answers) {
    if (a.status === 'fulfilled') parts.push(...a.value);
    else log.warn('an actor gave no metrics for this scrape', { error: a.reason instanceof Error ? a.reason.message : String(a.reason) });
  }
  // prom-client's own JSON, as its aggregator takes it (the wire type spells out only what crosses threads).
  return AggregatorRegistry.aggregate(parts as unknown as Parameters<typeof AggregatorRegistry.aggregate>[0]).metrics();
}
