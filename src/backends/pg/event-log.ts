/**
 * The event log of a PostgreSQL source as the trigger-delivery actor and the event commands
 * use it (tables made by `event-triggers.ts`). Due events are leased in batches with
 * `FOR UPDATE SKIP LOCKED`: instances sharing a source never take the same event, and an
 * event whose lease is older than its trigger's lease time (an instance that died
 * mid-delivery) is due again.
 */
import type pg from 'pg';
import { PgListener } from '../../db/listener.js';
import type { EventRecord, EventStore, FinishedAttempt, LeaseSpec } from '../faces/events.js';
import type { EventStatements } from '../faces/admin.js';
import { createPool, resolveDatabaseUrl } from './connection.js';
import { EVENTS_CHANNEL } from './event-triggers.js';
import { eventRecord } from '../event-triggers-shared.js';
import type { JsonObject } from '../../util/decode.js';

/**
 * Due events of the triggers `$1` (names; `$4`: each one's lease in seconds), oldest first,
 * walked in the order of the pending index so that a fetch reads about `$2` rows however long
 * the backlog (on the actor's connections, which plan without sorts: `PgEventStore`).
 */
export const FETCH = `
WITH due AS (
  SELECT l.id FROM service_catalog.event_log l
  WHERE NOT l.delivered AND NOT l.error AND NOT l.archived
    AND l.trigger_name = ANY ($1::text[])
    AND (l.next_retry_at IS NULL OR l.next_retry_at <= now())
    AND (l.locked IS NULL OR l.locked < now() - make_interval(secs => ($4::integer[])[array_position($1::text[], l.trigger_name)]))
  ORDER BY l.created_at
  LIMIT $2
  FOR UPDATE OF l SKIP LOCKED)
UPDATE service_catalog.event_log e SET locked = now(), locked_by = $3
FROM due WHERE e.id = due.id
RETURNING e.id, e.schema_name, e.table_name, e.trigger_name, e.payload::text AS payload, e.tries, to_json(e.created_at) #>> '{}' AS created_at`;

/**
 * The same with a cap on each trigger's events leased at once across instances
 * (`LeaseSpec.maxConcurrent`, 0: none): a trigger's room is its cap less its events under a live
 * lease, whoever holds them (a finished attempt not yet recorded still counts). Run under the
 * capped triggers' advisory locks (`CAP_LOCKS`), so two instances never both count the same room.
 */
const FETCH_CAPPED = `
WITH t AS (SELECT * FROM json_to_recordset($1::json) AS t(name text, lease integer, cap integer)),
room AS (
  SELECT t.name, t.lease, CASE WHEN t.cap = 0 THEN $2 ELSE t.cap - (
    SELECT count(*) FROM service_catalog.event_log l
    WHERE l.trigger_name = t.name AND NOT l.delivered AND NOT l.error AND NOT l.archived
      AND l.locked >= now() - make_interval(secs => t.lease))::int END AS free
  FROM t),
due AS (
  SELECT d.id FROM room CROSS JOIN LATERAL (
    SELECT l.id FROM service_catalog.event_log l
    WHERE l.trigger_name = room.name AND NOT l.delivered AND NOT l.error AND NOT l.archived
      AND (l.next_retry_at IS NULL OR l.next_retry_at <= now())
      AND (l.locked IS NULL OR l.locked < now() - make_interval(secs => room.lease))
    ORDER BY l.created_at
    LIMIT greatest(room.free, 0)
    FOR UPDATE OF l SKIP LOCKED) d
  LIMIT $2)
UPDATE service_catalog.event_log e SET locked = now(), locked_by = $3
FROM due WHERE e.id = due.id
RETURNING e.id, e.schema_name, e.table_name, e.trigger_name, e.payload::text AS payload, e.tries, to_json(e.created_at) #>> '{}' AS created_at`;

/** The capped fetch's transaction, its statements planned with sorts as anywhere (sorts are off on the actor's connections for `FETCH`). */
const CAPPED_BEGIN = 'BEGIN; SET LOCAL enable_sort = on';

/** The capped triggers' advisory locks, till the transaction ends (in name order: no deadlock between instances). */
const CAP_LOCKS = `SELECT pg_advisory_xact_lock(hashtext('service_catalog.event_cap'), hashtext(name)) FROM unnest($1::text[]) AS name ORDER BY name`;

/**
 * A batch of finished attempts (`$1`: JSON rows), one statement: each recorded, each event moved
 * on unless its lease was lost. The rows are read as `jsonb`, parsed once: `json` parses each
 * request and response again into its `jsonb` column (the database's CPU for a lease and
 * its record: 0.14 ms per event with `json`, 0.12 with `jsonb`, measured alone, 3 runs each).
 */
const FINISH = `
WITH f AS (
  SELECT * FROM jsonb_to_recordset($1::jsonb) AS f(id uuid, trigger text, status integer, request jsonb, response jsonb, duration_ms integer,
    delivered boolean, error boolean, retry_after float8)),
invocation AS (
  INSERT INTO service_catalog.event_invocation_logs (event_id, trigger_name, status, request, response, duration_ms)
  SELECT id, trigger, status, request, response, duration_ms FROM f)
UPDATE service_catalog.event_log e SET locked = NULL, locked_by = NULL, tries = e.tries + 1, delivered = f.delivered, error = f.error,
  next_retry_at = CASE WHEN f.retry_after IS NULL THEN NULL ELSE now() + make_interval(secs => f.retry_after) END
FROM f WHERE e.id = f.id AND e.locked_by = $2`;

const RELEASE = `UPDATE service_catalog.event_log SET locked = NULL, locked_by = NULL WHERE locked_by = $1 AND NOT delivered AND NOT error`;

/** Delivered and archived events (and their invocations) past the retention, a batch at a time. */
const RETENTION = `
WITH gone AS (
  DELETE FROM service_catalog.event_log WHERE id IN (
    SELECT id FROM service_catalog.event_log WHERE (delivered OR archived) AND created_at < now() - make_interval(hours => $1) LIMIT $2)
  RETURNING id),
invocations AS (DELETE FROM service_catalog.event_invocation_logs WHERE event_id IN (SELECT id FROM gone))
SELECT count(*)::int AS n FROM gone`;

const HAS_LOG = `SELECT to_regclass('service_catalog.event_log') IS NOT NULL AS ready`;

/**
 * The actor's connections (set before any statement of one: 'connect' fires before the pool
 * hands it out). Leases and finished attempts commit without waiting for the WAL flush (a
 * commit per fetch and per flush, else each waiting for the disk: a third of the time per event
 * in bench/events.mjs); a server crash can forget the last of them, and then an event is
 * delivered again: at least once, as after an instance's crash. Sorts off: the planner's
 * estimate of the due events comes from statistics taken before a burst (a few rows, from the
 * defaults' selectivities), so it would sort every pending event to lease the oldest 100: 30 ms
 * per fetch with 20,000 pending, for every fetch of the burst (a fetch's cost growing with the
 * backlog). Without sorts `FETCH` walks the pending index in order and stops at its limit
 * (2 ms); the other statements here sort nothing (the capped fetch sorts again: `CAPPED_BEGIN`).
 */
export const CONNECTION_SETTINGS = 'SET synchronous_commit = off; SET enable_sort = off';

/** Statements the event commands run in the request's transaction (see `EventStatements`). */
export const eventStatements: EventStatements = {
  invoke: `
WITH e AS (
  INSERT INTO service_catalog.event_log (schema_name, table_name, trigger_name, payload) VALUES ($1, $2, $3, $4::jsonb) RETURNING id)
SELECT id::text AS id, pg_notify('${EVENTS_CHANNEL}', $3) FROM e`,
  redeliver: `
WITH e AS (
  UPDATE service_catalog.event_log SET delivered = false, error = false, tries = 0, locked = NULL, locked_by = NULL, next_retry_at = NULL
  WHERE id = $1::uuid RETURNING trigger_name)
SELECT trigger_name, pg_notify('${EVENTS_CHANNEL}', trigger_name) FROM e`,
  cleanup: `
WITH gone AS (
  DELETE FROM service_catalog.event_log WHERE id IN (
    SELECT id FROM service_catalog.event_log
    WHERE trigger_name = $1 AND (delivered OR error OR archived) AND created_at < now() - make_interval(hours => $2)
    LIMIT $3)
  RETURNING id),
invocations AS (DELETE FROM service_catalog.event_invocation_logs WHERE $4 AND event_id IN (SELECT id FROM gone) RETURNING 1)
SELECT (SELECT count(*) FROM gone)::int AS events, (SELECT count(*) FROM invocations)::int AS invocations`,
  hasLog: HAS_LOG,
};

interface EventRow {
  id: string;
  schema_name: string;
  table_name: string;
  trigger_name: string;
  payload: string;
  tries: number;
  created_at: string;
}

export class PgEventStore implements EventStore {
  private readonly pool: pg.Pool;

  constructor(private readonly configuration: JsonObject, maxConnections: number) {
    this.pool = createPool(configuration, process.env, { maxConnections, idleTimeoutSeconds: 60 });
    this.pool.on('connect', (client) => void client.query(CONNECTION_SETTINGS).catch(() => {}));
  }

  async ready(): Promise<boolean> {
    return (await this.pool.query<{ ready: boolean }>(HAS_LOG)).rows[0]?.ready === true;
  }

  async fetch(triggers: readonly LeaseSpec[], limit: number, instance: string): Promise<EventRecord[]> {
    const capped = triggers.filter((t) => t.maxConcurrent > 0).map((t) => t.name);
    const rows =
      capped.length === 0
        ? (await this.pool.query<EventRow>(FETCH, [triggers.map((t) => t.name), limit, instance, triggers.map((t) => t.leaseSeconds)])).rows
        : await this.fetchCapped(capped, JSON.stringify(triggers.map((t) => ({ name: t.name, lease: t.leaseSeconds, cap: t.maxConcurrent }))), limit, instance);
    return rows.map((row) => eventRecord({ ...row }));
  }

  private async fetchCapped(capped: string[], specs: string, limit: number, instance: string): Promise<EventRow[]> {
    const client = await this.pool.connect();
    try {
      await client.query(CAPPED_BEGIN);
      await client.query(CAP_LOCKS, [capped]);
      // A statement of its own after the locks: its snapshot sees the leases the last holder committed.
      const rows = (await client.query<EventRow>(FETCH_CAPPED, [specs, limit, instance])).rows;
      await client.query('COMMIT');
      return rows;
    } catch (e) {
      await client.query('ROLLBACK').catch(() => {});
      throw e;
    } finally {
      client.release();
    }
  }

  async finish(attempts: readonly FinishedAttempt[], instance: string): Promise<void> {
    if (attempts.length === 0) return;
    const rows = attempts.map(({ event, invocation, outcome }) => ({
      id: event.id,
      trigger: event.trigger,
      status: invocation.status,
      request: invocation.request,
      response: invocation.response,
      duration_ms: Math.round(invocation.durationMs),
      delivered: outcome.kind === 'delivered',
      error: outcome.kind === 'error',
      retry_after: outcome.kind === 'retry' ? outcome.afterSeconds : null,
    }));
    await this.pool.query(FINISH, [JSON.stringify(rows), instance]);
  }

  async release(instance: string): Promise<void> {
    await this.pool.query(RELEASE, [instance]);
  }

  async cleanupBatch(trigger: string, olderThanHours: number, batchSize: number, invocations: boolean): Promise<{ events: number; invocations: number }> {
    const row = (await this.pool.query<{ events: number; invocations: number }>(eventStatements.cleanup, [trigger, olderThanHours, batchSize, invocations])).rows[0];
    return { events: row?.events ?? 0, invocations: row?.invocations ?? 0 };
  }

  async removeDelivered(olderThanHours: number, batchSize: number): Promise<number> {
    return (await this.pool.query<{ n: number }>(RETENTION, [olderThanHours, batchSize])).rows[0]?.n ?? 0;
  }

  listen(wake: () => void): { close(): Promise<void> } {
    const listener = new PgListener(
      { connectionString: resolveDatabaseUrl(this.configuration) },
      EVENTS_CHANNEL,
      { applicationName: 'service-graphql-events', label: 'event listener', meanwhile: 'events are fetched every interval' },
      { notification: wake, listening: wake },
    );
    void listener.start();
    return listener;
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}
