/**
 * Entry of a multiplexer actor's worker thread: the live queries of the
 * subscribers the front thread gives it (`multiplexers.ts`), run on this thread's own
 * connection pools (`SERVICE_GRAPHQL_LIVE_QUERIES_*` pool settings) with its own change
 * capture, following the sources of each snapshot. The front thread keeps the sockets; what
 * comes back is result text, sent on unparsed.
 */
import { workerData } from 'node:worker_threads';
import { ChangeCapture } from '../../live/change-capture.js';
import { toGraphQLReply } from '../../errors/graphql-reply.js';
import { LiveQueries } from '../../live/live-queries.js';
import type { LiveQuery } from '../../protocol/live.js';
import { SourcePools } from '../../execute/source-pools.js';
import { log, setLogLevel } from '../../log.js';
import { loadFaces } from '../../backends/registry.js';
import { InOrder } from '../../util/in-order.js';
import type { MultiplexedSubscriber, MultiplexerBootData, MultiplexerEvent, MultiplexerMessage, MultiplexerRequest } from '../../protocol/messages.js';
import type { MultiplexerView } from '../../protocol/snapshot.js';
import { traces } from '../../observability/traces/tracer.js';
import { publish, serveActor } from '../host.js';
import { SnapshotBus } from '../snapshot-bus.js';
import { DeliveryOutbox } from './deliveries.js';

const { logLevel, live: options, pools, metrics: metricsSettings, queryTracing } = workerData as MultiplexerBootData;
setLogLevel(logLevel);
traces.statements = queryTracing;

const snapshots = new SnapshotBus<MultiplexerView>();
// The polls' spans follow the metadata's `opentelemetry`, as every thread's do.
snapshots.subscribe((view) => traces.configure(view.opentelemetry));
const order = new InOrder((e) => log.error('a message to the multiplexer actor failed', { error: e instanceof Error ? (e.stack ?? e.message) : String(e) }));
// Loaded only when metrics are on (prom-client included); made before the pools, which it meters.
const metrics = metricsSettings ? new (await import('./metrics.js')).MultiplexerMetrics(metricsSettings, () => live.pollers(), () => sources.openConnections()) : null;
const sources = new SourcePools(snapshots, pools, metrics ? (source) => metrics.pools.meter(source) : undefined);
const capture = options.changeCapture ? new ChangeCapture(snapshots) : null;
const live = new LiveQueries(sources, options, capture, metrics);
const outbox = new DeliveryOutbox((deliveries) => publish<MultiplexerEvent>({ type: 'deliveries', deliveries }));

/** The live queries with subscribers here, by key: the front thread sends a query's statements with its first subscriber only. */
const queries = new Map<string, { query: LiveQuery; subscribers: number }>();
const subscribers = new Map<number, { key: string; stop: () => unknown }>();

/**
 * A subscriber that cannot be taken (a bug: the front thread and this actor disagree) gets the
 * error, logged, rather than crashing the actor: given again after a restart, it would crash
 * it again and again.
 */
function subscribe(query: LiveQuery | { key: string }, added: MultiplexedSubscriber[]): void {
  try {
    let known = queries.get(query.key);
    if (!known) {
      if (!('steps' in query)) throw new Error(`live query ${JSON.stringify(query.key.slice(0, 80))} came without its statements`);
      queries.set(query.key, (known = { query, subscribers: 0 }));
    }
    for (const { id, values } of added) {
      if (subscribers.has(id)) unsubscribe(id);
      // The known query's key, not the message's copy (one per subscriber, each as long as the statements).
      subscribers.set(id, { key: known.query.key, stop: live.subscribe(known.query, values, (text, hash, v) => outbox.add(id, text, hash, v)) });
      known.subscribers++;
    }
  } catch (e) {
    if (queries.get(query.key)?.subscribers === 0) queries.delete(query.key);
    const text = toGraphQLReply(e).body;
    for (const { id } of added) if (!subscribers.has(id)) outbox.add(id, text, null, null);
  }
}

function unsubscribe(id: number): void {
  const sub = subscribers.get(id);
  if (!sub) return;
  subscribers.delete(id);
  sub.stop();
  const known = queries.get(sub.key)!;
  if (--known.subscribers === 0) queries.delete(sub.key);
}

serveActor<MultiplexerRequest, MultiplexerMessage>({
  boot: async () => {},
  handle: async (req) => {
    switch (req.type) {
      case 'counts':
        return live.counts;
      case 'metrics':
        return metrics ? metrics.json() : [];
    }
  },
  // In the order told: a subscriber comes after the sources it reads, whose backends this
  // thread loads when a source of their kind first comes.
  told: (message) => {
    switch (message.type) {
      case 'sources':
        return order.run(loadFaces('runtime', message.view.connected.map((c) => c.kind)), () => snapshots.publish(message.view));
      case 'subscribe':
        return order.run(null, () => subscribe(message.query, message.subscribers));
      case 'unsubscribe':
        return order.run(null, () => message.ids.forEach(unsubscribe));
    }
  },
  shutdown: async () => {
    live.close();
    await capture?.close();
    await sources.close();
    await traces.close();
  },
});
