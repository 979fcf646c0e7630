/**
 * The front thread's side of the multiplexer actors. Each live query goes
 * to one actor, chosen by its key, which runs it for every subscriber given to it; the front
 * thread keeps the sockets and hands each result text to its subscribers. It also keeps
 * what it gave each actor (the subscribers, their cohort values as their streams' cursors
 * moved, the hash of the last result each got), so that an actor that crashed is given its
 * subscribers again once it is restarted: they keep their subscriptions, and get a result
 * only if it differs from their last one (a stream goes on from its cursor).
 */
import type { CohortValues, LiveQuery, LiveQueryCounts } from '../../protocol/live.js';
import { log } from '../../log.js';
import type { MetricsJson } from '../../protocol/metrics.js';
import type { Delivery, MultiplexerBootData, MultiplexerEvent, MultiplexerMessage, MultiplexerReplies, MultiplexerRequest } from '../../protocol/messages.js';
import type { MultiplexerView } from '../../protocol/snapshot.js';
import { Actor } from '../runtime.js';
import type { Snapshots } from '../../protocol/snapshot.js';

/**
 * Receives a subscription's response texts. `latest`: a live query's result, which a newer one
 * may replace while the connection is congested; a stream's batch of new rows or an error must
 * arrive (`ws-outbox.ts`).
 */
export type Deliver = (text: string, latest: boolean) => void;

/**
 * The connection a subscriber's results go out on: the results of one batch for its
 * subscribers are written inside one `cork`, so that they leave in one write to the socket.
 */
export interface Corkable {
  cork(write: () => void): void;
}

/**
 * A live query as one actor knows it: the first subscriber's, which every later subscriber of
 * the same key shares (its key is the query's statements as text, about 700 bytes for one
 * field: a copy per subscriber was a quarter of the front thread's heap at 20,000 subscribers).
 */
interface Known {
  query: LiveQuery;
  /** Its subscribers on the actor: a query's statements go with its first one. */
  subscribers: number;
  /** Its subscribers' cohort values, one copy per distinct value: a cohort's subscribers share it (about 200 bytes each otherwise). */
  values: Map<string, SharedValues>;
}

/** Cohort values held by `holders` subscribers (a stream's subscriber holds them until its cursor moves). */
interface SharedValues {
  key: string;
  values: (CohortValues | null)[];
  holders: number;
}

interface Registered {
  known: Known;
  /** The values it started with, shared: what it leaves when it stops. */
  shared: SharedValues;
  /** Its current values: the shared ones, or a stream's after its cursor moved. */
  values: (CohortValues | null)[];
  deliver: Deliver;
  connection: Corkable | null;
  /** The hash of the last live result delivered (null: none yet, or a stream). */
  hash: string | null;
}

class Multiplexer {
  readonly actor: Actor<MultiplexerRequest, MultiplexerReplies, MultiplexerEvent>;
  readonly subscribers = new Map<number, Registered>();
  /** The live queries with subscribers on the actor, by key. */
  readonly queries = new Map<string, Known>();
  /** Started (a restarted one is given its state again as it is ready): messages go. */
  ready = false;

  constructor(name: string, data: MultiplexerBootData, timeoutMs: number) {
    this.actor = new Actor({ name, script: new URL('./worker.js', import.meta.url), workerData: data, timeoutMs });
  }
}

export class Multiplexers {
  private readonly actors: Multiplexer[];
  private nextId = 1;
  private view: MultiplexerView | null = null;

  constructor(snapshots: Snapshots<MultiplexerView>, data: MultiplexerBootData, count: number, timeoutMs: number) {
    this.actors = Array.from({ length: count }, (_, i) => new Multiplexer(`multiplexer ${i + 1}`, data, timeoutMs));
    for (const m of this.actors) {
      m.actor.onEvent((e) => this.delivered(m, e.deliveries));
      m.actor.onReady((restarted) => this.resume(m, restarted));
    }
    snapshots.subscribe((s) => {
      this.view = { connected: s.connected, changes: s.changes, opentelemetry: s.opentelemetry };
      for (const m of this.actors) if (m.ready) tell(m, { type: 'sources', view: this.view });
    });
  }

  /**
   * Adds a subscriber of a live query with its cohort values. Returns how to stop it, which
   * gives its cohort values as they are then (a stream's cursors have moved).
   */
  subscribe(query: LiveQuery, values: (CohortValues | null)[], deliver: Deliver, connection: Corkable | null = null): () => (CohortValues | null)[] {
    const m = this.actors[this.actors.length === 1 ? 0 : keyHash(query.key) % this.actors.length]!;
    const id = this.nextId++;
    let known = m.queries.get(query.key);
    const first = known === undefined;
    if (!known) m.queries.set(query.key, (known = { query, subscribers: 0, values: new Map() }));
    known.subscribers++;
    const key = JSON.stringify(values);
    let shared = known.values.get(key);
    if (!shared) known.values.set(key, (shared = { key, values, holders: 0 }));
    shared.holders++;
    const reg: Registered = { known, shared, values: shared.values, deliver, connection, hash: null };
    m.subscribers.set(id, reg);
    // An actor not ready is given it with the others when it is (`resume`).
    if (m.ready) tell(m, { type: 'subscribe', query: first ? known.query : { key: known.query.key }, subscribers: [{ id, values: reg.values }] });
    return () => {
      if (m.subscribers.delete(id)) {
        if (--reg.shared.holders === 0) reg.known.values.delete(reg.shared.key);
        if (--reg.known.subscribers === 0) m.queries.delete(reg.known.query.key);
        if (m.ready) tell(m, { type: 'unsubscribe', ids: [id] });
      }
      return reg.values;
    };
  }

  /** Starts every actor (boot). */
  async start(): Promise<void> {
    await Promise.all(this.actors.map((m) => m.actor.start()));
  }

  /** Live queries, cohorts and subscribers of every actor. */
  counts(): Promise<LiveQueryCounts[]> {
    return Promise.all(this.actors.map((m) => m.actor.request({ type: 'counts' })));
  }

  /** `/dev/subscriptions/extended` (the `developer` API): each actor's counts, numbered, with their totals. */
  async extended(): Promise<unknown> {
    const counts = await this.counts();
    const totals = { queries: 0, cohorts: 0, subscribers: 0 };
    for (const c of counts) {
      totals.queries += c.queries;
      totals.cohorts += c.cohorts;
      totals.subscribers += c.subscribers;
    }
    return { multiplexers: counts.map((c, i) => ({ actor: i + 1, ...c })), totals };
  }

  /** Each actor's metrics (`/v1/metrics`). */
  metrics(): Promise<MetricsJson[]> {
    return Promise.all(this.actors.map((m) => m.actor.request({ type: 'metrics' })));
  }

  /** Ends every actor as a crash would: each is restarted and given its subscribers again. */
  async restart(): Promise<void> {
    await Promise.all(this.actors.map((m) => m.actor.kill()));
  }

  async close(): Promise<void> {
    await Promise.all(this.actors.map((m) => (m.ready ? m.actor.stop().catch(() => {}) : undefined)));
  }

  /** The actor is ready (`restarted`: after a crash): it is given the sources, then every subscriber it has. */
  private resume(m: Multiplexer, restarted: boolean): void {
    m.ready = true;
    if (this.view) tell(m, { type: 'sources', view: this.view });
    const byQuery = new Map<Known, number[]>();
    for (const [id, r] of m.subscribers) {
      const ids = byQuery.get(r.known);
      if (ids) ids.push(id);
      else byQuery.set(r.known, [id]);
    }
    for (const [{ query }, ids] of byQuery) {
      tell(m, { type: 'subscribe', query, subscribers: ids.map((id) => ({ id, values: m.subscribers.get(id)!.values })) });
    }
    if (restarted) log.warn('multiplexer restarted; its subscribers were given to it again', { actor: this.actors.indexOf(m) + 1, subscribers: m.subscribers.size, queries: byQuery.size });
  }

  /**
   * Hands each result to its subscribers, a connection's together under its cork: a connection's
   * subscribers of one cohort get the same result at once, and written one by one each was a write
   * to the socket (a system call: half the front thread's time under 1,000 writes/s).
   */
  private delivered(m: Multiplexer, deliveries: Delivery[]): void {
    const byConnection = new Map<Corkable, (Registered | Delivery)[]>();
    for (const d of deliveries) {
      for (const id of d.ids) {
        const r = m.subscribers.get(id);
        // Gone meanwhile, or the result it had before its actor was restarted.
        if (!r || (d.hash !== null && d.hash === r.hash)) continue;
        r.hash = d.hash;
        if (d.values) r.values = d.values;
        if (!r.connection) {
          deliver(r, d);
          continue;
        }
        const results = byConnection.get(r.connection);
        if (results) results.push(r, d);
        else byConnection.set(r.connection, [r, d]);
      }
    }
    for (const [connection, results] of byConnection) {
      connection.cork(() => {
        for (let i = 0; i < results.length; i += 2) deliver(results[i] as Registered, results[i + 1] as Delivery);
      });
    }
  }
}

/** A live result (it has a hash) may be replaced by a newer one; a stream's batch and an error (none) must arrive. */
const deliver = (r: Registered, d: Delivery) => r.deliver(d.text, d.hash !== null);

const tell = (m: Multiplexer, message: MultiplexerMessage) => m.actor.tell(message);

/** FNV-1a of a live query's key: which actor runs it. */
function keyHash(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return h >>> 0;
}
