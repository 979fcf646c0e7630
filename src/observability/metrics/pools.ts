/**
 * `service_postgres_connections{source_name, role}`: the connections each pool of a thread holds
 * open, read at a scrape (nothing is counted per query). Every thread with pools (the front
 * thread, each multiplexer actor) registers it; the scrape sums the threads' shares per source.
 */
import { Gauge, type Registry } from 'prom-client';
import { PREFIX } from './names.js';

/** `pools`: each source's open connections in this thread. Replicas are not pooled apart: every pool is `primary`. */
export function registerPoolConnections(registry: Registry, pools: () => Iterable<[source: string, open: number]>): void {
  new Gauge({
    name: `${PREFIX}postgres_connections`,
    help: 'Current number of open connections to each source (all pools of all threads)',
    labelNames: ['source_name', 'role'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [source, open] of pools()) this.inc({ source_name: source, role: 'primary' }, open);
    },
  });
}
