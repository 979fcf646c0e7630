/**
 * `service_source_health{source_name}`: each source's status as `/healthz/sources` reports it,
 * as the well-known engine's `hasura_source_health` numbers them (0 OK, 1 TIMEOUT, 2 FAILED,
 * 3 ERROR). The metadata actor runs the checks when a scrape asks (docs/operations.md).
 */
import type { MetricType } from 'prom-client';
import type { SourceHealth } from '../../protocol/messages.js';
import type { MetricsJson } from '../../protocol/metrics.js';
import { PREFIX } from './names.js';

const CODES: Record<SourceHealth['status'] | 'FAILED', number> = { OK: 0, TIMEOUT: 1, FAILED: 2, ERROR: 3 };

/** prom-client's JSON says `'gauge'`; its typings declare an enum that the package does not export. */
const GAUGE = 'gauge' as unknown as MetricType;

/** As an actor's answer to a scrape (one registry's metrics). */
export async function sourceHealthMetrics(health: Promise<Record<string, SourceHealth>>): Promise<MetricsJson[]> {
  const values = Object.entries(await health).map(([source_name, h]) => ({ labels: { source_name }, value: CODES[h.status] }));
  return [[{ name: `${PREFIX}source_health`, help: 'Health check status of each source (0 OK, 1 TIMEOUT, 2 FAILED, 3 ERROR), as /healthz/sources reports it', type: GAUGE, values, aggregator: 'sum' }]];
}
