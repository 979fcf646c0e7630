/**
 * The Events section's calls. Triggers are changed with the metadata commands; a trigger's
 * events and invocations are read from its source's event log (`service_catalog.event_log`,
 * `event_invocation_logs`) with a read-only `run_sql` (`readJson`), as the well-known engine's console read
 * its `hdb_catalog` tables (this engine has no `pg_get_event_logs`); scheduled events come
 * from `get_scheduled_events` and `get_scheduled_event_invocations`.
 */
import { readColumns } from '../../api/catalog';
import { metadata } from '../../api/client';
import type { ConfiguredHeader, EventTrigger, Metadata, QualifiedTable } from '../../api/metadata';
import { readJson, sqlLiteral, sqlTable } from '../../api/sql';

/** An event trigger with where it is. */
export interface TriggerAt {
  source: string;
  kind: string;
  table: QualifiedTable;
  trigger: EventTrigger;
}

/** Every event trigger of the metadata, by source then name. */
export function eventTriggers(m: Metadata | null): TriggerAt[] {
  const out: TriggerAt[] = [];
  for (const s of m?.sources ?? []) for (const t of s.tables) for (const trigger of t.event_triggers ?? []) out.push({ source: s.name, kind: s.kind, table: t.table, trigger });
  return out.sort((a, b) => a.source.localeCompare(b.source) || a.trigger.name.localeCompare(b.trigger.name));
}

/** The `/v1/metadata` prefix of a source kind's commands (`pg_create_event_trigger`). */
export const commandPrefix = (kind: string): string => (kind === 'postgres' ? 'pg' : kind);

/** One attempt to deliver an event, as both kinds of logs record it. */
export interface Invocation {
  id: string;
  event_id: string;
  status: number | null;
  request: unknown;
  response: unknown;
  created_at: string;
}

export interface TriggerEvent {
  id: string;
  created_at: string;
  /** The event's state: `pending`, `delivered`, `error` (scheduled events: their `status`). */
  status: string;
  tries: number;
  payload: unknown;
  /** When the next try is due, if one is. */
  next_retry_at: string | null;
}

/** Rows a page of events or invocations shows (pages are numbered from 0, the latest first). */
export const PAGE = 50;

/** A trigger's pending (not yet delivered nor failed) or processed events, newest first: page `page`. */
export async function triggerEvents(at: TriggerAt, processed: boolean, page = 0): Promise<TriggerEvent[]> {
  return readJson<TriggerEvent>(
    at.source,
    `SELECT id, created_at, CASE WHEN delivered THEN 'delivered' WHEN error THEN 'error' ELSE 'pending' END AS status, tries, payload, next_retry_at
     FROM service_catalog.event_log WHERE trigger_name = ${sqlLiteral(at.trigger.name)} AND NOT archived AND ${processed ? '' : 'NOT '}(delivered OR error)
     ORDER BY created_at DESC LIMIT ${PAGE} OFFSET ${page * PAGE}`,
  );
}

/** A trigger's invocation logs (or one event's), newest first: page `page`. */
export async function triggerInvocations(at: TriggerAt, eventId?: string, page = 0): Promise<Invocation[]> {
  const event = eventId === undefined ? '' : ` AND event_id = ${sqlLiteral(eventId)}`;
  return readJson<Invocation>(
    at.source,
    `SELECT id, event_id, status, request, response, created_at
     FROM service_catalog.event_invocation_logs WHERE trigger_name = ${sqlLiteral(at.trigger.name)}${event} ORDER BY created_at DESC LIMIT ${PAGE} OFFSET ${page * PAGE}`,
  );
}

/** A table's first rows as JSON objects (what a manual invocation sends). */
export const tableRows = (source: string, table: QualifiedTable, limit = 20): Promise<Record<string, unknown>[]> => readJson(source, `SELECT * FROM ${sqlTable(table)} LIMIT ${limit}`);

/** A table's column names, in order. */
export const tableColumns = async (source: string, table: QualifiedTable): Promise<string[]> => (await readColumns(source, table)).map((c) => c.name);

export const redeliverEvent = (at: TriggerAt, eventId: string) => metadata(`${commandPrefix(at.kind)}_redeliver_event`, { event_id: eventId, source: at.source });

export const invokeEventTrigger = (at: TriggerAt, payload: unknown) =>
  metadata<{ event_id: string }>(`${commandPrefix(at.kind)}_invoke_event_trigger`, { name: at.trigger.name, source: at.source, payload });

export const deleteEventTrigger = (at: TriggerAt) => metadata(`${commandPrefix(at.kind)}_delete_event_trigger`, { name: at.trigger.name, source: at.source });

/** A cron trigger as `get_cron_triggers` lists it. */
export interface CronTrigger {
  name: string;
  webhook: string;
  schedule: string;
  payload?: unknown;
  headers?: ConfiguredHeader[];
  retry_conf?: ScheduledRetry;
  include_in_metadata: boolean;
  comment?: string;
  request_transform?: unknown;
  response_transform?: unknown;
}

export interface ScheduledRetry {
  num_retries: number;
  retry_interval_seconds: number;
  timeout_seconds: number;
  tolerance_seconds: number;
}

export const cronTriggers = async (): Promise<CronTrigger[]> => (await metadata<{ cron_triggers: CronTrigger[] }>('get_cron_triggers', {})).cron_triggers;

export type ScheduledKind = 'one_off' | 'cron';

/** The statuses of a scheduled event still to be delivered, and of one that is done. */
const PENDING_STATUSES = ['scheduled', 'locked'];
const PROCESSED_STATUSES = ['delivered', 'error', 'dead'];

interface ScheduledEventRow {
  id: string;
  scheduled_time: string;
  status: string;
  tries: number;
  payload: unknown;
  created_at: string;
  next_retry_at: string | null;
  comment: string | null;
}

/**
 * Page `page` of a scheduled-event listing counted from its end, latest first (the engine lists
 * them oldest first; what is done is read latest first): its size, then that page.
 */
async function fromTheEnd<T>(type: string, key: string, args: Record<string, unknown>, page: number): Promise<T[]> {
  const counted = await metadata<{ count: number }>(type, { ...args, limit: 1, get_rows_count: true });
  const end = counted.count - page * PAGE;
  if (end <= 0) return [];
  const offset = Math.max(0, end - PAGE);
  const r = await metadata<Record<string, T[]>>(type, { ...args, limit: end - offset, offset });
  return [...(r[key] ?? [])].reverse();
}

/**
 * A cron trigger's (`trigger`) or the one-off scheduled events: those to come (the next ones
 * first) or those processed (the latest first).
 */
export async function scheduledEvents(type: ScheduledKind, processed: boolean, trigger?: string, page = 0): Promise<(TriggerEvent & { scheduled_time: string; comment: string | null })[]> {
  const args = { type, status: processed ? PROCESSED_STATUSES : PENDING_STATUSES, ...(trigger ? { trigger_name: trigger } : {}) };
  const rows = processed
    ? await fromTheEnd<ScheduledEventRow>('get_scheduled_events', 'events', args, page)
    : (await metadata<{ events: ScheduledEventRow[] }>('get_scheduled_events', { ...args, limit: PAGE, offset: page * PAGE })).events;
  return rows.map((e) => ({ ...e, next_retry_at: e.next_retry_at ?? null }));
}

/** Scheduled events' invocation logs (or one event's), the latest first. */
export const scheduledInvocations = (type: ScheduledKind, trigger?: string, eventId?: string, page = 0): Promise<Invocation[]> =>
  fromTheEnd<Invocation>('get_scheduled_event_invocations', 'invocations', { type, ...(trigger ? { trigger_name: trigger } : {}), ...(eventId ? { event_id: eventId } : {}) }, page);

export const deleteScheduledEvent = (type: ScheduledKind, eventId: string) => metadata('delete_scheduled_event', { type, event_id: eventId });
