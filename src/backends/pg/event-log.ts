/**
 * The event log of a PostgreSQL source as the trigger-delivery actor and the event commands
 * use it (tables made by `event-triggers.ts`). Due events are leased in batches with
 * `FOR UPDATE SKIP LOCKED`: instances sharing a source never take the same event, and an
 * event whose lease is older than its trigger's lease time (an instance that died
 * mid-delivery) is due again.
 */
import type pg from 'pg';
import { PgListener } from '../../db/listener.js';
import type { EventOutcome, EventRecord, EventStatements, EventStore, InvocationRecord, LeaseSpec } from '../backend.js';
import { createPool, resolveDatabaseUrl } from './connection.js';
import { EVENTS_CHANNEL } from './event-triggers.js';
import { eventRecord, finishParams } from '../event-triggers-shared.js';
import type { JsonObject } from '../../util/decode.js';

const FETCH = `
WITH due AS (
  SELECT l.id FROM service_catalog.event_log l
  JOIN json_to_recordset($1::json) AS t(name text, lease integer) ON t.name = l.trigger_name
  WHERE NOT l.delivered AND NOT l.error AND NOT l.archived
    AND (l.next_retry_at IS NULL OR l.next_retry_at <= now())
    AND (l.locked IS NULL OR l.locked < now() - make_interval(secs => t.lease))
  ORDER BY l.created_at
  LIMIT $2
  FOR UPDATE OF l SKIP LOCKED)
UPDATE service_catalog.event_log e SET locked = now(), locked_by = $3
FROM due WHERE e.id = due.id
RETURNING e.id, e.schema_name, e.table_name, e.trigger_name, e.payload::text AS payload, e.tries, to_json(e.created_at) #>> '{}' AS created_at`;

const FINISH = `
WITH invocation AS (
  INSERT INTO service_catalog.event_invocation_logs (event_id, trigger_name, status, request, response, duration_ms)
  VALUES ($1, $2, $3, $4::jsonb, $5::jsonb, $6))
UPDATE service_catalog.event_log SET locked = NULL, locked_by = NULL, tries = tries + 1, delivered = $7, error = $8,
  next_retry_at = CASE WHEN $9::float8 IS NULL THEN NULL ELSE now() + make_interval(secs => $9::float8) END
WHERE id = $1 AND locked_by = $10`;

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

export class PgEventStore implements EventStore {
  private readonly pool: pg.Pool;

  constructor(private readonly configuration: JsonObject, maxConnections: number) {
    this.pool = createPool(configuration, process.env, { maxConnections, idleTimeoutSeconds: 60 });
  }

  async ready(): Promise<boolean> {
    return (await this.pool.query<{ ready: boolean }>(HAS_LOG)).rows[0]?.ready === true;
  }

  async fetch(triggers: readonly LeaseSpec[], limit: number, instance: string): Promise<EventRecord[]> {
    const r = await this.pool.query<{ id: string; schema_name: string; table_name: string; trigger_name: string; payload: string; tries: number; created_at: string }>(FETCH, [
      JSON.stringify(triggers.map((t) => ({ name: t.name, lease: t.leaseSeconds }))),
      limit,
      instance,
    ]);
    return r.rows.map(eventRecord);
  }

  async finish(event: EventRecord, invocation: InvocationRecord, outcome: EventOutcome, instance: string): Promise<void> {
    await this.pool.query(FINISH, finishParams(event, invocation, outcome, instance));
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
