/**
 * `metrics_config` (the well-known engine's metadata key for its metrics: whether query
 * variables and response bodies are analysed): `{analyze_query_variables, analyze_response_body}`,
 * both booleans, both required as its decoder requires them. Stored and exported only when one
 * of them is true: false and false is the default, which its export leaves out. This engine
 * analyses neither (docs/operations.md "Metrics"); the setting is kept for the metadata's round trip.
 */
import { bool, ObjectReader, type JsonObject } from '../util/decode.js';
import type { Metadata } from './types.js';

export interface MetricsConfig {
  analyze_query_variables: boolean;
  analyze_response_body: boolean;
}

export function metricsConfig(v: unknown, path: string): MetricsConfig {
  const r = ObjectReader.of(v, path);
  const c: MetricsConfig = { analyze_query_variables: r.required('analyze_query_variables', bool), analyze_response_body: r.required('analyze_response_body', bool) };
  r.done();
  return c;
}

/** A whole document's section (absent: the default). */
export const metricsConfigSection = (v: unknown, path: string): MetricsConfig | undefined => (v === undefined || v === null ? undefined : metricsConfig(v, path));

/** Sets (undefined: removes) the section; the default is left out. */
export function setMetricsConfig(m: Metadata, c: MetricsConfig | undefined): void {
  if (c && (c.analyze_query_variables || c.analyze_response_body)) m.metrics_config = { ...c } as unknown as JsonObject;
  else delete m.metrics_config;
}
