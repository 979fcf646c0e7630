/**
 * The front thread's side of the trigger-delivery actor: starts it and tells it the event
 * triggers, sources and TLS allow-list of each snapshot (again after a restart, which gives
 * up nothing: its leases run out and are taken again).
 */
import type { MetricsJson } from '../../protocol/metrics.js';
import type { EventsBootData, EventsMessage, EventsReplies, EventsRequest } from '../../protocol/messages.js';
import type { EventsView, PublishedSnapshot } from '../../protocol/snapshot.js';
import { Actor } from '../runtime.js';
import type { Snapshots } from '../../protocol/snapshot.js';

export class TriggerDelivery {
  private readonly actor: Actor<EventsRequest, EventsReplies, never>;
  private view: EventsView | null = null;
  private ready = false;

  constructor(snapshots: Snapshots<PublishedSnapshot>, data: EventsBootData, timeoutMs: number) {
    this.actor = new Actor({ name: 'trigger delivery', script: new URL('./worker.js', import.meta.url), workerData: data, timeoutMs });
    this.actor.onReady(() => {
      this.ready = true;
      this.tell();
    });
    snapshots.subscribe((s) => {
      this.view = { connected: s.connected, eventTriggers: s.eventTriggers, cronTriggers: s.cronTriggers, tlsAllowlist: s.tlsAllowlist, asyncActions: s.asyncActions, opentelemetry: s.opentelemetry };
      this.tell();
    });
  }

  start(): Promise<void> {
    return this.actor.start();
  }

  status(): Promise<EventsReplies['status']> {
    return this.actor.request({ type: 'status' });
  }

  /** The actor's metrics (`/v1/metrics`). */
  async metrics(): Promise<MetricsJson[]> {
    return [await this.actor.request({ type: 'metrics' })];
  }

  enqueueAction(action: string, input: unknown, session: Record<string, string>, headers: Record<string, string>, requestQuery: string): Promise<string> {
    return this.actor.request({ type: 'action-enqueue', action, input, session, headers, requestQuery });
  }

  actionResult(id: string, action: string, session: Record<string, string>): Promise<EventsReplies['action-result']> {
    return this.actor.request({ type: 'action-result', id, action, session });
  }

  /** Deliveries in flight may end until `deadline` (epoch ms); the others are handed back as pending. */
  stop(deadline: number): Promise<void> {
    return this.actor.stop(deadline);
  }

  private tell(): void {
    if (!this.ready || !this.view) return;
    const message: EventsMessage = { type: 'triggers', view: this.view };
    this.actor.tell(message);
  }
}
