/**
 * Event triggers in a PostgreSQL source (spec "Event trigger", "Events" 1): the event log
 * (`service_catalog.event_log`, `service_catalog.event_invocation_logs`, as the well-known
 * engine's hdb_catalog tables) and one row trigger per trigger and operation, all calling one
 * function, `service_catalog.capture_event(name, columns, payload)`, which writes the event
 * in the transaction of the change. The operation's `columns` and `payload` travel as the
 * trigger's arguments (JSON text), so no SQL is generated per trigger; the trigger's comment
 * holds its definition's signature, which is how a sync sees that a trigger is as wanted.
 * The session variables are those the engine's mutation transaction, or an administration
 * request's (`run_sql`, the data operations), set (`service.session_variables`,
 * transaction-local: `recordSession`); NULL for writes from elsewhere. A traced mutation also sets
 * its span's ids (`service.trace_context`), which the event's `trace_context` carries on.
 */
import type pg from 'pg';
import { logger } from '../../log.js';
import type { EventTriggerSyncFailure } from '../faces/admin.js';
import type { EventTriggerInstall } from '../../metadata/event-triggers.js';
import { archivable, databaseTriggerName, OPERATIONS as OPS, reconcileTriggers, TRIGGER_PREFIX } from '../event-triggers-shared.js';
import { runLockBounded } from './lock-bounded.js';
import { INSTALL_LOCK } from '../../db/install-lock.js';

const log = logger('event-trigger');

/** Woken by each captured event (the delivery actor LISTENs; the payload is the trigger's name). */
export const EVENTS_CHANNEL = 'service_events';
/** The transaction-local setting a mutation transaction sets (see `execute/mutations.ts`). */
const SESSION_SETTING = 'service.session_variables';
/** Beside it, when the mutation is traced: `{trace_id, span_id}` of its span. */
const TRACE_SETTING = 'service.trace_context';

/** Makes the rest of `client`'s open transaction record `sessionJson` (and `traceJson`) as the session variables (and trace context) of the events it captures. */
export function recordSession(client: pg.ClientBase, sessionJson: string, traceJson?: string): Promise<unknown> {
  if (traceJson === undefined) return client.query(`SELECT set_config('${SESSION_SETTING}', $1, true)`, [sessionJson]);
  return client.query(`SELECT set_config('${SESSION_SETTING}', $1, true), set_config('${TRACE_SETTING}', $2, true)`, [sessionJson, traceJson]);
}

/** The event log's functions as this engine writes them (kept in the sync function's comment): an older install is brought up to date. */
const LOG_VERSION = 'event-log 3';

// One transaction under the install lock: two instances creating the tables at once would collide.
const CREATE_LOG = `
BEGIN;
${INSTALL_LOCK};
CREATE SCHEMA IF NOT EXISTS service_catalog;
CREATE TABLE IF NOT EXISTS service_catalog.event_log (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  schema_name text NOT NULL,
  table_name text NOT NULL,
  trigger_name text NOT NULL,
  payload jsonb NOT NULL,
  delivered boolean NOT NULL DEFAULT false,
  error boolean NOT NULL DEFAULT false,
  tries integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  locked timestamptz,
  locked_by text,
  next_retry_at timestamptz,
  archived boolean NOT NULL DEFAULT false
);
CREATE INDEX IF NOT EXISTS event_log_pending ON service_catalog.event_log (created_at) WHERE NOT delivered AND NOT error AND NOT archived;
CREATE INDEX IF NOT EXISTS event_log_trigger ON service_catalog.event_log (trigger_name, created_at);
CREATE TABLE IF NOT EXISTS service_catalog.event_invocation_logs (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  event_id uuid NOT NULL,
  trigger_name text NOT NULL,
  status integer,
  request jsonb,
  response jsonb,
  duration_ms integer,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS event_invocation_logs_event ON service_catalog.event_invocation_logs (event_id);
CREATE INDEX IF NOT EXISTS event_invocation_logs_trigger ON service_catalog.event_invocation_logs (trigger_name, created_at);
CREATE OR REPLACE FUNCTION service_catalog.capture_event() RETURNS trigger LANGUAGE plpgsql AS $body$
DECLARE
  _columns jsonb := TG_ARGV[1]::jsonb;
  _payload jsonb := TG_ARGV[2]::jsonb;
  _old jsonb;
  _new jsonb;
  _session text := current_setting('${SESSION_SETTING}', true);
  _trace text := current_setting('${TRACE_SETTING}', true);
BEGIN
  IF TG_OP <> 'INSERT' THEN _old := to_jsonb(OLD); END IF;
  IF TG_OP <> 'DELETE' THEN _new := to_jsonb(NEW); END IF;
  -- Only a change to one of the listed columns is an UPDATE event.
  IF TG_OP = 'UPDATE' AND jsonb_typeof(_columns) = 'array'
     AND NOT EXISTS (SELECT 1 FROM jsonb_array_elements_text(_columns) c WHERE _old -> c IS DISTINCT FROM _new -> c) THEN
    RETURN NULL;
  END IF;
  IF jsonb_typeof(_payload) = 'array' THEN
    IF _old IS NOT NULL THEN
      _old := (SELECT coalesce(jsonb_object_agg(c, _old -> c), '{}') FROM jsonb_array_elements_text(_payload) c);
    END IF;
    IF _new IS NOT NULL THEN
      _new := (SELECT coalesce(jsonb_object_agg(c, _new -> c), '{}') FROM jsonb_array_elements_text(_payload) c);
    END IF;
  END IF;
  INSERT INTO service_catalog.event_log (schema_name, table_name, trigger_name, payload)
  VALUES (TG_TABLE_SCHEMA, TG_TABLE_NAME, TG_ARGV[0], jsonb_build_object(
    'op', TG_OP,
    'data', jsonb_build_object('old', _old, 'new', _new),
    'session_variables', CASE WHEN _session IS NULL OR _session = '' THEN NULL ELSE _session::jsonb END,
    'trace_context', CASE WHEN _trace IS NULL OR _trace = '' THEN NULL ELSE _trace::jsonb END));
  PERFORM pg_notify('${EVENTS_CHANNEL}', TG_ARGV[0]);
  RETURN NULL;
END
$body$;
-- Removes (then installs, when \`install\`) each trigger, each in a subtransaction: the ones it
-- failed on come back with the error.
CREATE OR REPLACE FUNCTION service_catalog.sync_event_triggers(changes json) RETURNS TABLE (trigger_name text, error text)
LANGUAGE plpgsql AS $body$
DECLARE t record;
BEGIN
  FOR t IN SELECT * FROM json_to_recordset(changes) AS x(s text, n text, tg text, install boolean, op text, a text, b text, c text, always boolean, sig text) LOOP
    BEGIN
      -- DROP TRIGGER IF EXISTS of a missing trigger only takes ACCESS SHARE: without this lock
      -- (self-conflicting, as CREATE TRIGGER's) it would not see the trigger another engine is
      -- creating at the same time, and this CREATE TRIGGER would fail on it once it commits.
      EXECUTE format('LOCK TABLE %I.%I IN SHARE ROW EXCLUSIVE MODE', t.s, t.n);
      EXECUTE format('DROP TRIGGER IF EXISTS %I ON %I.%I', t.tg, t.s, t.n);
      IF t.install THEN
        -- t.op is INSERT, UPDATE or DELETE (written by the engine, never by a caller).
        EXECUTE format('CREATE TRIGGER %I AFTER %s ON %I.%I FOR EACH ROW EXECUTE FUNCTION service_catalog.capture_event(%L, %L, %L)', t.tg, t.op, t.s, t.n, t.a, t.b, t.c);
        IF t.always THEN
          EXECUTE format('ALTER TABLE %I.%I ENABLE ALWAYS TRIGGER %I', t.s, t.n, t.tg);
        END IF;
        EXECUTE format('COMMENT ON TRIGGER %I ON %I.%I IS %L', t.tg, t.s, t.n, t.sig);
      END IF;
    EXCEPTION WHEN others THEN
      trigger_name := t.tg; error := SQLERRM;
      RETURN NEXT;
    END;
  END LOOP;
END
$body$;
COMMENT ON FUNCTION service_catalog.sync_event_triggers(json) IS '${LOG_VERSION}';
COMMIT`;

/** This engine's event triggers in the database, with their tables and signatures. */
const INSTALLED = `
SELECT t.tgname AS trigger, n.nspname AS schema, c.relname AS name, obj_description(t.oid, 'pg_trigger') AS signature
FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE t.tgname LIKE '${TRIGGER_PREFIX}%'`;

const ARCHIVE = `UPDATE service_catalog.event_log SET archived = true WHERE trigger_name = ANY($1) AND NOT delivered AND NOT error AND NOT archived`;

/** `present`: some version of the event log is installed; `current`: this engine's. */
const LOG_STATE = `
SELECT p IS NOT NULL AS present, coalesce(obj_description(p, 'pg_proc') = '${LOG_VERSION}', false) AS current
FROM to_regprocedure('service_catalog.sync_event_triggers(json)') AS p`;

const logState = async (pool: pg.Pool) => (await pool.query<{ present: boolean; current: boolean }>(LOG_STATE)).rows[0]!;

/** Database triggers per statement: each holds a lock on its table until the statement's transaction ends. */
const TRIGGERS_PER_STATEMENT = 200;

interface Installed {
  trigger: string;
  schema: string;
  name: string;
  signature: string | null;
}

interface Change {
  s: string;
  n: string;
  tg: string;
  install: boolean;
  op?: string;
  a?: string;
  b?: string;
  c?: string;
  always?: boolean;
  sig?: string;
}

/** Creates the event log tables and functions (idempotent). */
export async function createEventLog(pool: pg.Pool): Promise<void> {
  if ((await logState(pool)).current) return;
  const client = await pool.connect();
  try {
    await client.query(CREATE_LOG);
  } catch (e) {
    await client.query('ROLLBACK').catch(() => {});
    throw e;
  } finally {
    client.release();
  }
}

/**
 * Makes the database's event triggers those of `triggers` (one source's), leaving the
 * triggers named in `keep` (another source's, maybe on the same database) alone; `recreate`
 * installs every one again (reload_metadata's `recreate_event_triggers`). Returns the
 * failures by database trigger name (never throws for one trigger).
 */
export async function syncEventTriggers(pool: pg.Pool, triggers: readonly EventTriggerInstall[], keep: ReadonlySet<string>, recreate: boolean): Promise<Map<string, EventTriggerSyncFailure>> {
  const failed = new Map<string, EventTriggerSyncFailure>();
  if (triggers.length === 0 && !(await logState(pool)).present) return failed;
  await createEventLog(pool);
  const installed = (await pool.query<Installed>(INSTALLED)).rows;
  const wanted = new Map<string, Change>();
  for (const t of triggers) {
    for (const op of ['insert', 'update', 'delete'] as const) {
      const spec = t[op];
      if (!spec) continue;
      const args = { a: t.name, b: JSON.stringify(spec.columns), c: JSON.stringify(spec.payload) };
      const sig = JSON.stringify([args.a, args.b, args.c, t.triggerOnReplication]);
      const tg = databaseTriggerName(t.name, op);
      wanted.set(tg, { s: t.table.schema, n: t.table.name, tg, install: true, op: OPS[op], ...args, always: t.triggerOnReplication, sig });
    }
  }
  const names = new Set(triggers.map((t) => t.name));
  const fingerprinted = new Map([...wanted].map(([tg, w]) => [tg, { ...w, schema: w.s, table: w.n, fingerprint: w.sig ?? null }]));
  const plan = reconcileTriggers(fingerprinted, installed.map((i) => ({ ...i, table: i.name, fingerprint: i.signature })), names, keep, recreate);
  const changes: Change[] = [...plan.drop.map((i) => ({ s: i.schema, n: i.table, tg: i.trigger, install: false })), ...plan.create.map(([tg]) => wanted.get(tg)!)];
  if (changes.length === 0) return failed;
  // Bounded lock waits (a client holding a table never holds a metadata request forever).
  const byName = new Map(changes.map((c) => [c.tg, c]));
  const failures = await runLockBounded(pool, changes, TRIGGERS_PER_STATEMENT, async (client, batch) =>
    (await client.query<{ trigger_name: string; error: string }>('SELECT * FROM service_catalog.sync_event_triggers($1::json)', [JSON.stringify(batch)])).rows.map((r) => ({
      item: byName.get(r.trigger_name)!,
      error: r.error,
    })),
  );
  for (const f of failures) {
    failed.set(f.item.tg, { table: { schema: f.item.s, name: f.item.n }, error: f.error, lockTimeout: f.lockTimeout });
    log.warn('an event trigger cannot be installed or removed in its source', { trigger: f.item.tg, error: f.error });
  }
  // A trigger gone from the metadata (deleted, untracked, cleared): its pending events are set
  // aside once its database triggers are gone (archived: never delivered, removed by the
  // retention and by cleanups).
  const gone = archivable(plan.gone, failed.keys());
  if (gone.length > 0) await pool.query(ARCHIVE, [gone]);
  return failed;
}
