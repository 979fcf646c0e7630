/**
 * Change capture for live queries: a statement-level trigger on each tracked
 * ordinary table calls one function, `service_catalog.notify_table_change()` in the source
 * database, which sends `pg_notify('service_table_changes', '["<schema>","<table>"]')`. NOTIFY
 * is delivered at commit and de-duplicated per transaction, and the names are the table's at
 * fire time, so a table renamed through run_sql keeps notifying under its new name (which the
 * renamed metadata then tracks). Views, materialized views, foreign and partitioned tables get
 * no trigger (a write reaches them without firing one): their live queries are polled.
 *
 * The metadata actor installs and removes the triggers (`syncChangeCapture`); the front thread
 * listens (`listenChanges`) and learns which tables have one from `pg_trigger`.
 */
import type pg from 'pg';
import { PgListener } from '../../db/listener.js';
import { log } from '../../log.js';
import { qualifiedKey, type QualifiedName } from '../../catalog/types.js';
import type { ChangeFeed, ChangeFeedHandlers } from '../faces/runtime.js';
import { runLockBounded } from './lock-bounded.js';
import { INSTALL_LOCK } from '../../db/install-lock.js';
import { coalesced } from '../../util/coalesced.js';

const CHANNEL = 'service_table_changes';
const TRIGGER = 'service_change_capture';
const FUNCTION = 'service_catalog.notify_table_change()';
const SYNC_FUNCTION = 'service_catalog.sync_change_capture';
/** The notice that the set of captured tables changed (a table's notice is a JSON array). */
const CAPTURED_CHANGED = 'captured';
/** Names the listening connection in `pg_stat_activity`. */
export const CHANGE_LISTENER_APPLICATION_NAME = 'service-graphql-change-capture';

// `service_catalog` may be the metadata store's schema too (same database): only this function is ours here.
// One implicit transaction (one simple query) under the install lock: engines starting together
// on one database would otherwise collide on the catalog's unique index of functions.
const CREATE_FUNCTION = `
${INSTALL_LOCK};
CREATE SCHEMA IF NOT EXISTS service_catalog;
CREATE OR REPLACE FUNCTION ${FUNCTION} RETURNS trigger LANGUAGE plpgsql AS $body$
BEGIN
  PERFORM pg_notify('${CHANNEL}', json_build_array(TG_TABLE_SCHEMA, TG_TABLE_NAME)::text);
  RETURN NULL;
END
$body$;
-- Installs (\`install\`) or removes the trigger of each table, each in a subtransaction: the
-- tables it failed on come back with the error. One statement for many tables.
CREATE OR REPLACE FUNCTION ${SYNC_FUNCTION}(tables json) RETURNS TABLE (table_schema text, table_name text, installing boolean, error text)
LANGUAGE plpgsql AS $body$
DECLARE t record;
BEGIN
  FOR t IN SELECT * FROM json_to_recordset(tables) AS x(s text, n text, install boolean) LOOP
    BEGIN
      IF t.install THEN
        EXECUTE format('CREATE TRIGGER ${TRIGGER} AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON %I.%I FOR EACH STATEMENT EXECUTE FUNCTION ${FUNCTION}', t.s, t.n);
      ELSE
        EXECUTE format('DROP TRIGGER IF EXISTS ${TRIGGER} ON %I.%I', t.s, t.n);
      END IF;
    EXCEPTION
      -- Another instance made it meanwhile.
      WHEN duplicate_object THEN NULL;
      WHEN others THEN
        table_schema := t.s; table_name := t.n; installing := t.install; error := SQLERRM;
        RETURN NEXT;
    END;
  END LOOP;
END
$body$`;

/** The tables with the trigger (`captured`), and the wanted ones (`$1`) that can get one. */
const CAPTURE_STATE = `
SELECT n.nspname AS schema, c.relname AS name,
  (w.schema IS NOT NULL AND c.relkind = 'r') AS wanted,
  EXISTS (SELECT 1 FROM pg_trigger t WHERE t.tgrelid = c.oid AND t.tgname = '${TRIGGER}') AS captured,
  EXISTS (SELECT 1 FROM pg_proc p JOIN pg_namespace pn ON pn.oid = p.pronamespace WHERE pn.nspname = 'service_catalog' AND p.proname = 'sync_change_capture') AS function
FROM pg_class c
JOIN pg_namespace n ON n.oid = c.relnamespace
LEFT JOIN json_to_recordset($1::json) AS w(schema text, name text) ON w.schema = n.nspname AND w.name = c.relname
WHERE w.schema IS NOT NULL OR EXISTS (SELECT 1 FROM pg_trigger t WHERE t.tgrelid = c.oid AND t.tgname = '${TRIGGER}')`;

/** The captured tables (`captured`), and the names of types that are not also a function. */
const CAPTURED = `
SELECT n.nspname AS schema, c.relname AS name, true AS captured
FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE t.tgname = '${TRIGGER}'
UNION ALL
SELECT n.nspname, t.typname, false
FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
WHERE t.typrelid = 0
  -- pg_catalog's casts share their types' names; no function from there is tracked.
  AND (n.nspname = 'pg_catalog' OR NOT EXISTS (SELECT 1 FROM pg_proc p WHERE p.pronamespace = t.typnamespace AND p.proname = t.typname))`;

/** Tables per statement: each holds a lock on its table until the statement's transaction ends. */
const TABLES_PER_STATEMENT = 200;

interface SyncFailure {
  table_schema: string;
  table_name: string;
  installing: boolean;
  error: string;
}

interface StateRow {
  schema: string;
  name: string;
  wanted: boolean;
  captured: boolean;
  function: boolean;
}

/**
 * Gives `tables` a trigger and takes it from the others that have one, except `keep` (tables
 * another source on the same database may track). One statement per 200 tables, each table in
 * a subtransaction: a table whose trigger cannot be made (no privilege) is logged and polled,
 * never an error.
 */
export async function syncChangeCapture(pool: pg.Pool, source: string, tables: readonly QualifiedName[], keep: readonly QualifiedName[]): Promise<void> {
  let rows: StateRow[];
  try {
    rows = (await pool.query<StateRow>(CAPTURE_STATE, [JSON.stringify(tables)])).rows;
  } catch (e) {
    log.warn('change capture state cannot be read; live queries on this source are polled', { source, error: message(e) });
    return;
  }
  const kept = new Set(keep.map(qualifiedKey));
  const install = rows.filter((r) => r.wanted && !r.captured);
  const remove = rows.filter((r) => r.captured && !r.wanted && !kept.has(qualifiedKey(r)));
  if ((install.length > 0 || remove.length > 0) && !rows[0]!.function) {
    try {
      await pool.query(CREATE_FUNCTION);
    } catch (e) {
      log.warn('change capture cannot be installed; live queries on this source are polled', { source, error: message(e) });
      return;
    }
  }
  const changes = [...install.map((t) => ({ s: t.schema, n: t.name, install: true })), ...remove.map((t) => ({ s: t.schema, n: t.name, install: false }))];
  if (changes.length === 0) return;
  // A table a client holds (its TRUNCATE, its DDL) is tried again shortly, a few times.
  const failed = await runLockBounded(pool, changes, TABLES_PER_STATEMENT, async (client, batch) =>
    (await client.query<SyncFailure>(`SELECT * FROM ${SYNC_FUNCTION}($1::json)`, [JSON.stringify(batch)])).rows.map((f) => ({
      item: { s: f.table_schema, n: f.table_name, install: f.installing },
      error: f.error,
    })),
  );
  for (const f of failed) {
    const table = qualifiedKey({ schema: f.item.s, name: f.item.n });
    if (f.item.install) log.warn('change capture cannot be installed on a table; its live queries are polled', { source, table, error: f.error });
    else log.warn('change capture cannot be removed from a table', { source, table, error: f.error });
  }
  // Every listener (this instance's and others') reads the captured tables again.
  await pool.query(`SELECT pg_notify('${CHANNEL}', '${CAPTURED_CHANGED}')`).catch((e: unknown) => log.warn('change capture listeners cannot be told of new triggers', { source, error: message(e) }));
}

/** Listens for the notifications of the source's triggers (see `Backend.listenChanges`). */
export function listenChanges(connectionString: string, handlers: ChangeFeedHandlers): ChangeFeed {
  let client: pg.Client | null = null;
  // One read at a time on the listening connection (a query sent while another runs is queued by
  // the driver, which deprecates it); notices during a read make one more read after it.
  const readCaptured = coalesced(async () => {
    const c = client;
    if (!c) return;
    await c.query<QualifiedName & { captured: boolean }>(CAPTURED).then(
      (r) => {
        const names = (captured: boolean) => r.rows.filter((row) => row.captured === captured).map(({ schema, name }) => ({ schema, name }));
        if (client === c) handlers.captured(names(true), names(false));
      },
      // A lost connection is reported by the listener; anything else leaves the tables polled.
      (e) => log.warn('change capture state cannot be read; live queries on this source are polled', { error: message(e) }),
    );
  });
  const listener = new PgListener(
    { connectionString },
    CHANNEL,
    { applicationName: CHANGE_LISTENER_APPLICATION_NAME, label: 'change capture listener', meanwhile: 'live queries are polled' },
    {
      notification: (payload) => {
        if (payload === CAPTURED_CHANGED) return readCaptured();
        const t = parseTable(payload);
        if (t) handlers.changed(t);
      },
      listening: (c) => {
        client = c;
        readCaptured();
      },
      lost: () => {
        client = null;
        handlers.lost();
      },
    },
  );
  void listener.start();
  return {
    refresh: readCaptured,
    close: () => listener.close(),
  };
}

function parseTable(payload: string): QualifiedName | null {
  try {
    const v: unknown = JSON.parse(payload);
    if (Array.isArray(v) && v.length === 2 && typeof v[0] === 'string' && typeof v[1] === 'string') return { schema: v[0], name: v[1] };
  } catch {
    // Not ours: someone else's NOTIFY on the channel.
  }
  return null;
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));
