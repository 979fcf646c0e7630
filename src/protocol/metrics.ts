/**
 * Prometheus metrics across threads (`/v1/metrics`). Every thread that counts something keeps
 * its own prom-client registry; an actor asked `{type: 'metrics'}` answers with its registry's
 * JSON (`Registry.getMetricsAsJSON`), and the front thread sums them with its own
 * (`observability/metrics/scrape.ts`, prom-client's `AggregatorRegistry.aggregate`): counters and
 * histograms add up, and so do gauges (each thread counts its own share).
 */
/** An actor's request for its metrics. */
export interface MetricsRequest {
  type: 'metrics';
}

import type { MetricType } from 'prom-client';

/** One metric as `Registry.getMetricsAsJSON` gives it (a histogram's samples name their series in `metricName`). */
export interface MetricJson {
  name: string;
  help: string;
  type: MetricType;
  aggregator: string;
  values: { labels: Partial<Record<string, string | number>>; value: number; metricName?: string }[];
}

/** One registry's metrics. */
export type MetricsJson = MetricJson[];

/** What an actor that counts is started with when metrics are on (absent: it keeps no registry). */
export interface MetricsSettings {
  /** `SERVICE_GRAPHQL_METRICS_ENABLE_HIGH_CARDINALITY_LABELS`: subscription metrics carry `operation_name` and `parameterized_query_hash`. */
  highCardinalityLabels: boolean;
}
