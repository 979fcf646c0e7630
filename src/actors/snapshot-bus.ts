/**
 * The one way metadata snapshots reach the front thread's consumers (the schema builder, plan
 * cache, source connections; later subscriptions, trigger delivery): the metadata
 * actor's snapshot events are published here once, and every consumer subscribes.
 */
import type { MetadataActorEvent } from '../protocol/messages.js';
import type { PublishedSnapshot, SnapshotListener, Snapshots } from '../protocol/snapshot.js';
import { log } from '../log.js';

/** What the bus needs from the metadata actor (`Actor.onEvent`). */
export interface SnapshotSource {
  onEvent(listener: (e: MetadataActorEvent, attachment: Uint8Array | undefined) => void): void;
}

/** `S`: the snapshots published (a thread that follows only part of them has a bus of that part). */
export class SnapshotBus<S = PublishedSnapshot> implements Snapshots<S> {
  private latest: S | null = null;
  private readonly listeners = new Set<SnapshotListener<S>>();
  private readonly stagedListeners = new Set<SnapshotListener<S | null>>();

  /**
   * Publishes every snapshot the metadata actor announces (its update's bytes come as the
   * event's attachment), and passes on the staged ones (MetadataActorEvent).
   */
  follow(this: SnapshotBus<PublishedSnapshot>, source: SnapshotSource): void {
    source.onEvent((e, update) => {
      if (e.type === 'unstaged') return this.tell(this.stagedListeners, null);
      if (!(update?.buffer instanceof SharedArrayBuffer)) return log.error('a snapshot event came without its update in shared memory', { generation: e.snapshot.generation });
      const snapshot = { ...e.snapshot, update: update as Uint8Array<SharedArrayBuffer> };
      if (e.type === 'staged') this.tell(this.stagedListeners, snapshot);
      else this.publish(snapshot);
    });
  }

  /** The snapshot of a change being written, before it is published (or null: it will not be); no current one is replayed. */
  onStaged(listener: SnapshotListener<S | null>): void {
    this.stagedListeners.add(listener);
  }

  publish(snapshot: S): void {
    this.latest = snapshot;
    this.tell(this.listeners, snapshot);
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
