/** A backend's events face, with the types it names (`backends/backend.ts` puts the faces together). */
import type { QualifiedName } from '../../catalog/types.js';
import type { JsonObject } from '../../util/decode.js';
import type { EventOutcome, InvocationRecord } from '../../db/event-invocations.js';

/** What the trigger-delivery actor needs of a backend: its sources' event logs. */
export interface EventsFace {
  /** The backend's name (`postgres`); several metadata source kinds may share one (citus). */
  readonly kind: string;

  /** Event triggers (optional): the log the trigger-delivery actor leases events from, with a pool of at most `maxConnections`. */
  connectEvents?(configuration: JsonObject, maxConnections: number): EventStore;
}

/** A trigger whose events the actor may lease, and how long a lease holds (past it, another instance may take the event). */
export interface LeaseSpec {
  name: string;
  leaseSeconds: number;
  /** At most this many of its events leased at once, by all instances together; 0: no cap. */
  maxConcurrent: number;
}

/** A leased event. `payload`: the stored JSON text `{op, data, session_variables, trace_context}`. */
export interface EventRecord {
  id: string;
  trigger: string;
  table: QualifiedName;
  payload: string;
  /** Attempts made before this one. */
  tries: number;
  createdAt: string;
}

/** A delivery attempt of a leased event, to be recorded. */
export interface FinishedAttempt {
  event: EventRecord;
  invocation: InvocationRecord;
  outcome: EventOutcome;
}

/** A source's event log as the trigger-delivery actor uses it. */
export interface EventStore {
  /** Whether the log exists (no event trigger was ever installed otherwise). */
  ready(): Promise<boolean>;
  /** Leases up to `limit` due events of these triggers for `instance`. */
  fetch(triggers: readonly LeaseSpec[], limit: number, instance: string): Promise<EventRecord[]>;
  /** Records the attempts and moves each event on (unless its lease was lost meanwhile), in one statement. */
  finish(attempts: readonly FinishedAttempt[], instance: string): Promise<void>;
  /** Gives back the leases of `instance` (graceful shutdown). */
  release(instance: string): Promise<void>;
  /** One batch of a log cleanup (`EventStatements.cleanup`). */
  cleanupBatch(trigger: string, olderThanHours: number, batchSize: number, invocations: boolean): Promise<{ events: number; invocations: number }>;
  /** Removes a batch of delivered (or archived) events older than the retention; how many went. */
  removeDelivered(olderThanHours: number, batchSize: number): Promise<number>;
  /** Calls `wake` on each new event (and after (re)connecting). */
  listen(wake: () => void): { close(): Promise<void> };
  close(): Promise<void>;
}
