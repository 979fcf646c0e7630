/**
 * Scheduled events in the metadata database (spec "Scheduled (one-off) event", "Cron
 * trigger"): one table for cron events (`trigger_name` set, one per trigger and time) and
 * one-off events (`delivery` holds their webhook, headers, retry_conf and transforms), and
 * their invocations. Statuses: `scheduled`, `locked` (leased by `locked_by`), `delivered`,
 * `error`, `dead` (older than its tolerance when due). Leased as the event log is: `FOR UPDATE
 * SKIP LOCKED`, a lease of `timeout_seconds` + 10 s.
 */
import pg from 'pg';
import type { EventOutcome, InvocationRecord } from './event-invocations.js';

export const SCHEDULED_SCHEMA = `
CREATE TABLE IF NOT EXISTS service_catalog.scheduled_events (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  trigger_name text,
  delivery jsonb,
  payload jsonb,
  comment text,
  scheduled_time timestamptz NOT NULL,
  status text NOT NULL DEFAULT 'scheduled',
  tries integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  next_retry_at timestamptz,
  locked timestamptz,
  locked_by text,
  UNIQUE (trigger_name, scheduled_time)
);
CREATE INDEX IF NOT EXISTS scheduled_events_due ON service_catalog.scheduled_events (scheduled_time) WHERE status IN ('scheduled', 'locked');
CREATE TABLE IF NOT EXISTS service_catalog.scheduled_event_invocation_logs (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  event_id uuid NOT NULL,
  status integer,
  request jsonb,
  response jsonb,
  duration_ms integer,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS scheduled_event_invocation_logs_event ON service_catalog.scheduled_event_invocation_logs (event_id);`;

/** The columns an event is listed with (`get_scheduled_events`). */
const EVENT_COLUMNS = `id::text, trigger_name AS name, to_json(scheduled_time) #>> '{}' AS scheduled_time, payload, status, tries, to_json(created_at) #>> '{}' AS created_at, to_json(next_retry_at) #>> '{}' AS next_retry_at, comment`;

/** Parameterised statements of the scheduled-event operations. */
export const SCHEDULED_STATEMENTS = {
  /** $1 scheduled_time, $2 payload, $3 comment, $4 delivery. */
  createOneOff: `INSERT INTO service_catalog.scheduled_events (scheduled_time, payload, comment, delivery) VALUES ($1, $2::jsonb, $3, $4::jsonb) RETURNING id::text`,
  /** $1 id, $2 true for cron events. */
  delete: `DELETE FROM service_catalog.scheduled_events WHERE id = $1::uuid AND (trigger_name IS NOT NULL) = $2 RETURNING id`,
  /** A cron trigger's events still to come ($1 name), or all of them ($2 true). */
  deleteCron: `DELETE FROM service_catalog.scheduled_events WHERE trigger_name = $1 AND ($2 OR status = 'scheduled')`,
  /** $1 cron?, $2 trigger name or null, $3 statuses or null, $4 limit, $5 offset. */
  list: `SELECT ${EVENT_COLUMNS}, count(*) OVER () AS total FROM service_catalog.scheduled_events
    WHERE (trigger_name IS NOT NULL) = $1 AND ($2::text IS NULL OR trigger_name = $2) AND ($3::text[] IS NULL OR status = ANY($3))
    ORDER BY scheduled_time, id LIMIT $4 OFFSET $5`,
  /** $1 cron?, $2 event id or null, $3 trigger name or null, $4 limit, $5 offset. */
  invocations: `SELECT i.id::text, i.event_id::text, i.status, i.request, i.response, to_json(i.created_at) #>> '{}' AS created_at, count(*) OVER () AS total
    FROM service_catalog.scheduled_event_invocation_logs i JOIN service_catalog.scheduled_events e ON e.id = i.event_id
    WHERE (e.trigger_name IS NOT NULL) = $1 AND ($2::uuid IS NULL OR e.id = $2::uuid) AND ($3::text IS NULL OR e.trigger_name = $3)
    ORDER BY i.created_at, i.id LIMIT $4 OFFSET $5`,
} as const;

const GENERATE = `INSERT INTO service_catalog.scheduled_events (trigger_name, scheduled_time) SELECT $1, unnest($2::timestamptz[]) ON CONFLICT DO NOTHING`;

/** Dead: due longer ago than the tolerance (never sent). Cron events' tolerances come as `$1` JSON {name: seconds}. */
const MARK_DEAD = `
UPDATE service_catalog.scheduled_events e SET status = 'dead', locked = NULL, locked_by = NULL
WHERE status = 'scheduled' AND tries = 0 AND next_retry_at IS NULL
  AND scheduled_time < now() - make_interval(secs => coalesce((delivery #>> '{retry_conf,tolerance_seconds}')::float8, ($1::jsonb ->> trigger_name)::float8, 21600))`;

const FETCH = `
WITH due AS (
  SELECT id FROM service_catalog.scheduled_events
  WHERE status IN ('scheduled', 'locked') AND scheduled_time <= now()
    AND (trigger_name IS NULL OR trigger_name = ANY($1))
    AND (next_retry_at IS NULL OR next_retry_at <= now())
    AND (status = 'scheduled' OR locked < now() - make_interval(secs => coalesce((delivery #>> '{retry_conf,timeout_seconds}')::float8, 60) + 10))
  ORDER BY scheduled_time LIMIT $2 FOR UPDATE SKIP LOCKED)
UPDATE service_catalog.scheduled_events e SET status = 'locked', locked = now(), locked_by = $3
FROM due WHERE e.id = due.id
RETURNING e.id::text, e.trigger_name, e.delivery, e.payload, e.comment, to_json(e.scheduled_time) #>> '{}' AS scheduled_time, e.tries`;

const FINISH = `
WITH invocation AS (
  INSERT INTO service_catalog.scheduled_event_invocation_logs (event_id, status, request, response, duration_ms)
  VALUES ($1::uuid, $2, $3::jsonb, $4::jsonb, $5))
UPDATE service_catalog.scheduled_events SET locked = NULL, locked_by = NULL, tries = tries + 1, status = $6,
  next_retry_at = CASE WHEN $7::float8 IS NULL THEN NULL ELSE now() + make_interval(secs => $7::float8) END
WHERE id = $1::uuid AND locked_by = $8`;

const RELEASE = `UPDATE service_catalog.scheduled_events SET status = 'scheduled', locked = NULL, locked_by = NULL WHERE locked_by = $1 AND status = 'locked'`;

export interface ScheduledEventRow {
  id: string;
  trigger_name: string | null;
  delivery: Record<string, unknown> | null;
  payload: unknown;
  comment: string | null;
  scheduled_time: string;
  tries: number;
}

/** The trigger-delivery actor's side of the scheduled events. */
export class ScheduledEventStore {
  private readonly pool: pg.Pool;

  constructor(connectionString: string) {
    this.pool = new pg.Pool({ connectionString, max: 4 });
    this.pool.on('error', () => {});
  }

  /** Makes the cron events of `times` for a trigger (those already there stay). */
  async generate(trigger: string, times: Date[]): Promise<void> {
    if (times.length > 0) await this.pool.query(GENERATE, [trigger, times.map((t) => t.toISOString())]);
  }

  /** The events still to come of cron triggers that are gone. */
  async dropScheduled(triggers: string[]): Promise<void> {
    await this.pool.query(`DELETE FROM service_catalog.scheduled_events WHERE trigger_name = ANY($1) AND status = 'scheduled'`, [triggers]);
  }

  async markDead(tolerances: Record<string, number>): Promise<void> {
    await this.pool.query(MARK_DEAD, [JSON.stringify(tolerances)]);
  }

  async fetch(cronTriggers: string[], limit: number, instance: string): Promise<ScheduledEventRow[]> {
    return (await this.pool.query<ScheduledEventRow>(FETCH, [cronTriggers, limit, instance])).rows;
  }

  async finish(id: string, invocation: InvocationRecord, outcome: EventOutcome, instance: string): Promise<void> {
    const status = outcome.kind === 'delivered' ? 'delivered' : outcome.kind === 'error' ? 'error' : 'scheduled';
    await this.pool.query(FINISH, [
      id,
      invocation.status,
      JSON.stringify(invocation.request),
      JSON.stringify(invocation.response),
      Math.round(invocation.durationMs),
      status,
      outcome.kind === 'retry' ? outcome.afterSeconds : null,
      instance,
    ]);
  }

  async release(instance: string): Promise<void> {
    await this.pool.query(RELEASE, [instance]);
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}
