/**
 * Entry of the trigger-delivery actor's worker thread: follows the event
 * triggers and sources of each snapshot (`EventsView`, told by `trigger-delivery.ts`) and
 * delivers their events (`processor.ts`) on its own connection pools and HTTP client.
 */
import { workerData } from 'node:worker_threads';
import { logger, setLogLevel } from '../../log.js';
import { loadFaces } from '../../backends/registry.js';
import { InOrder } from '../../util/in-order.js';
import type { EventsBootData, EventsMessage, EventsRequest } from '../../protocol/messages.js';
import { serveActor } from '../host.js';
import { EventProcessor } from './processor.js';
import { traces } from '../../observability/traces/tracer.js';

const log = logger('event-trigger');

const options = workerData as EventsBootData;
setLogLevel(options.logLevel);
// Loaded only when metrics are on (prom-client included); the gauge of deliveries in flight reads the processor.
const metrics = options.metrics ? new (await import('./metrics.js')).EventMetrics(() => processor.inFlightCount) : null;
const processor = new EventProcessor(options, metrics);
const order = new InOrder((e) => log.error('the event triggers of a snapshot could not be taken', { error: e instanceof Error ? (e.stack ?? e.message) : String(e) }));

serveActor<EventsRequest, EventsMessage>({
  // The polls start with the first snapshot (`EventProcessor.start`).
  boot: async () => {},
  handle: async (req) => {
    switch (req.type) {
      case 'status':
        return { inFlight: processor.inFlightCount, ...processor.counts };
      case 'action-enqueue':
        return processor.asyncActions.enqueue(req.action, req.input, req.session, req.headers, req.requestQuery);
      case 'action-result':
        return processor.asyncActions.result(req.id, req.action, req.session);
      case 'metrics':
        return processor.metrics ? processor.metrics.registry.getMetricsAsJSON() : [];
    }
  },
  // The backends of the view's sources are loaded first (only those: this thread imports no other).
  told: (message) => {
    switch (message.type) {
      case 'triggers':
        // This thread's deliveries are traced as the snapshot says (each its own trace).
        traces.configure(message.view.opentelemetry);
        return order.run(loadFaces('events', message.view.connected.map((c) => c.kind)), () => processor.update(message.view));
    }
  },
  shutdown: (deadline) => processor.stop(deadline).then(() => traces.close()),
});
