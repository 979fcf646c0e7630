/**
 * The one way metadata snapshots reach the front thread's consumers (the schema builder, plan
 * cache, source connections; later subscriptions, trigger delivery): the metadata
 * actor's snapshot events are published here once, and every consumer subscribes.
 */
import type { MetadataActorEvent } from '../protocol/messages.js';
import type { PublishedSnapshot, SnapshotListener, Snapshots } from '../protocol/snapshot.js';
import { log } from '../log.js';
import { InOrder } from '../util/in-order.js';

/** What the bus needs from the metadata actor (`Actor.onEvent`). */
export interface SnapshotSource {
  onEvent(listener: (e: MetadataActorEvent, attachment: Uint8Array | undefined) => void): void;
}

/** `S`: the snapshots published (a thread that follows only part of them has a bus of that part). */
export class SnapshotBus<S = PublishedSnapshot> implements Snapshots<S> {
  private latest: S | null = null;
  private readonly listeners = new Set<SnapshotListener<S>>();
  private readonly stagedListeners = new Set<SnapshotListener<S | null>>();
  private readonly awaitingFirst: { resolve: (s: S) => void; reject: (e: unknown) => void }[] = [];

  /**
   * Publishes every snapshot the metadata actor announces (its update's bytes come as the
   * event's attachment), and passes on the staged ones (MetadataActorEvent). `prepare` makes
   * ready what a snapshot's consumers need (its sources' backends; null: ready already):
   * meanwhile the events after it wait too, so consumers see them in the actor's order.
   */
  follow(this: SnapshotBus<PublishedSnapshot>, source: SnapshotSource, prepare: (s: Omit<PublishedSnapshot, 'update'>) => Promise<void> | null = () => null): void {
    const order = new InOrder((e) => {
      log.error('a snapshot could not be made ready for its consumers', { error: e instanceof Error ? e.message : String(e) });
      // Before any snapshot is in effect, the engine cannot serve: its boot fails rather than waits.
      if (this.latest === null) for (const waiting of this.awaitingFirst.splice(0)) waiting.reject(e);
    });
    source.onEvent((e, update) => {
      if (e.type === 'unstaged') return order.run(null, () => this.tell(this.stagedListeners, null));
      if (!(update?.buffer instanceof SharedArrayBuffer)) return log.error('a snapshot event came without its update in shared memory', { generation: e.snapshot.generation });
      const snapshot = { ...e.snapshot, update: update as Uint8Array<SharedArrayBuffer> };
      order.run(prepare(e.snapshot), () => (e.type === 'staged' ? this.tell(this.stagedListeners, snapshot) : this.publish(snapshot)));
    });
  }

  /** The snapshot of a change being written, before it is published (or null: it will not be); no current one is replayed. */
  onStaged(listener: SnapshotListener<S | null>): void {
    this.stagedListeners.add(listener);
  }

  publish(snapshot: S): void {
    this.latest = snapshot;
    this.tell(this.listeners, snapshot);
    for (const waiting of this.awaitingFirst.splice(0)) waiting.resolve(snapshot);
  }

  /** The current snapshot, or the first one published (rejected if it cannot be made ready): the front thread serves nothing before it. */
  first(): Promise<S> {
    return this.latest ? Promise.resolve(this.latest) : new Promise((resolve, reject) => this.awaitingFirst.push({ resolve, reject }));
  }

  private tell<T>(listeners: Set<SnapshotListener<T>>, snapshot: T): void {
    for (const listener of listeners) {
      // One consumer's failure (a bug) must not keep the snapshot from the others, nor reach the actor runtime.
      try {
        listener(snapshot);
      } catch (e) {
        log.error('a snapshot consumer failed', { error: e instanceof Error ? (e.stack ?? e.message) : String(e) });
      }
    }
  }

  /** A listener gets the current snapshot at once (a consumer started late misses nothing), then every new one. */
  subscribe(listener: SnapshotListener<S>): () => void {
    this.listeners.add(listener);
    if (this.latest) listener(this.latest);
    return () => this.listeners.delete(listener);
  }
}
