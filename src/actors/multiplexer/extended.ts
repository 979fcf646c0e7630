/** `/dev/subscriptions/extended` (the `developer` API): each multiplexer actor's counts, numbered, with their totals. */
import type { LiveQueryCounts } from '../../protocol/live.js';

export function subscriptionsExtended(counts: LiveQueryCounts[]): unknown {
  const totals = { queries: 0, cohorts: 0, subscribers: 0 };
  for (const c of counts) {
    totals.queries += c.queries;
    totals.cohorts += c.cohorts;
    totals.subscribers += c.subscribers;
  }
  return { multiplexers: counts.map((c, i) => ({ actor: i + 1, ...c })), totals };
}
