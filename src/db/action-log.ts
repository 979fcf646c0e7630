/**
 * Asynchronous action invocations in the metadata database (spec "Action": `kind:
 * asynchronous`): one row per call, made by the mutation and answered with its id, then
 * leased by the trigger-delivery actor (`FOR UPDATE SKIP LOCKED`, a lease of the action's
 * timeout + 10 s, so a call whose engine stopped mid-way is taken again by the next one) and
 * finished with the handler's output or errors. Statuses: `created`, `processing` (leased),
 * `completed`, `error`.
 */
import pg from 'pg';

export const ACTION_LOG_SCHEMA = `
CREATE TABLE IF NOT EXISTS service_catalog.action_log (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  action_name text NOT NULL,
  input_payload jsonb NOT NULL,
  session_variables jsonb NOT NULL,
  request_headers jsonb NOT NULL,
  request_query text NOT NULL DEFAULT '',
  status text NOT NULL DEFAULT 'created',
  response_payload jsonb,
  errors jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  locked timestamptz,
  locked_by text
);
CREATE INDEX IF NOT EXISTS action_log_pending ON service_catalog.action_log (created_at) WHERE status IN ('created', 'processing');`;

export const ACTION_LOG_STATEMENTS = {
  /** drop_action's `clear_data` ($1 action name). */
  clear: `DELETE FROM service_catalog.action_log WHERE action_name = $1`,
} as const;

const INSERT = `INSERT INTO service_catalog.action_log (action_name, input_payload, session_variables, request_headers, request_query) VALUES ($1, $2::jsonb, $3::jsonb, $4::jsonb, $5) RETURNING id::text`;

/** The invocation if it was made by the same session (`$2`: its session variables as JSON). */
const RESULT = `SELECT id::text, to_json(created_at) #>> '{}' AS created_at, status, response_payload, errors
  FROM service_catalog.action_log WHERE id = $1::uuid AND action_name = $2 AND session_variables = $3::jsonb`;

/** Due: never leased, or leased longer ago than the action's timeout (`$1`: {name: seconds}) + 10 s. */
const FETCH = `
WITH due AS (
  SELECT id FROM service_catalog.action_log
  WHERE action_name = ANY($2) AND (status = 'created' OR (status = 'processing' AND locked < now() - make_interval(secs => coalesce(($1::jsonb ->> action_name)::float8, 30) + 10)))
  ORDER BY created_at LIMIT $3 FOR UPDATE SKIP LOCKED)
UPDATE service_catalog.action_log a SET status = 'processing', locked = now(), locked_by = $4
FROM due WHERE a.id = due.id
RETURNING a.id::text, a.action_name, a.input_payload, a.session_variables, a.request_headers, a.request_query, to_json(a.created_at) #>> '{}' AS created_at`;

const FINISH = `UPDATE service_catalog.action_log SET status = $2, response_payload = $3::jsonb, errors = $4::jsonb, locked = NULL, locked_by = NULL WHERE id = $1::uuid AND locked_by = $5`;

const RELEASE = `UPDATE service_catalog.action_log SET status = 'created', locked = NULL, locked_by = NULL WHERE locked_by = $1 AND status = 'processing'`;

export interface ActionLogRow {
  id: string;
  action_name: string;
  input_payload: unknown;
  session_variables: Record<string, string>;
  request_headers: Record<string, string>;
  request_query: string;
  created_at: string;
}

export interface ActionResultRow {
  id: string;
  created_at: string;
  status: string;
  response_payload: unknown;
  errors: unknown;
}

/** The trigger-delivery actor's side of the action log. */
export class ActionLogStore {
  private readonly pool: pg.Pool;

  constructor(connectionString: string, max: number) {
    this.pool = new pg.Pool({ connectionString, max });
    this.pool.on('error', () => {});
  }

  async insert(action: string, input: unknown, session: Record<string, string>, headers: Record<string, string>, requestQuery: string): Promise<string> {
    const { rows } = await this.pool.query<{ id: string }>(INSERT, [action, JSON.stringify(input), JSON.stringify(session), JSON.stringify(headers), requestQuery]);
    return rows[0]!.id;
  }

  async result(id: string, action: string, session: Record<string, string>): Promise<ActionResultRow | null> {
    // Not a uuid: no invocation (rather than a database error).
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) return null;
    const { rows } = await this.pool.query<ActionResultRow>(RESULT, [id, action, JSON.stringify(session)]);
    return rows[0] ?? null;
  }

  async fetch(timeouts: Record<string, number>, limit: number, instance: string): Promise<ActionLogRow[]> {
    const names = Object.keys(timeouts);
    if (names.length === 0 || limit <= 0) return [];
    return (await this.pool.query<ActionLogRow>(FETCH, [JSON.stringify(timeouts), names, limit, instance])).rows;
  }

  async finish(id: string, outcome: { output: unknown } | { errors: unknown }, instance: string): Promise<void> {
    const ok = 'output' in outcome;
    await this.pool.query(FINISH, [id, ok ? 'completed' : 'error', ok ? JSON.stringify(outcome.output) : null, ok ? null : JSON.stringify(outcome.errors), instance]);
  }

  async release(instance: string): Promise<void> {
    await this.pool.query(RELEASE, [instance]);
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}
