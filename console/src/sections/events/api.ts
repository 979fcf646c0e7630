/**
 * The Events section's calls. Triggers are changed with the metadata commands; a trigger's
 * events and invocations are read from its source's event log (`service_catalog.event_log`,
 * `event_invocation_logs`) with a read-only `run_sql`, as the well-known engine's console read
 * its `hdb_catalog` tables (this engine has no `pg_get_event_logs`); scheduled events come
 * from `get_scheduled_events` and `get_scheduled_event_invocations`.
 */
import { metadata, runSql } from '../../api/client';
import type { EventTrigger, Metadata, QualifiedTable } from '../../api/metadata';
import type { ConfiguredHeader } from '../../ui/HeaderListEditor';

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

/** A string as an SQL literal. */
const literal = (s: string): string => `'${s.replace(/'/g, "''")}'`;
/** A name as an SQL identifier. */
const ident = (s: string): string => `"${s.replace(/"/g, '""')}"`;

/** Rows of a read-only `run_sql` as objects (every value as text or null). */
async function select(sql: string, source: string): Promise<Record<string, string | null>[]> {
  const r = await runSql(sql, { source, read_only: true });
  const [header, ...rows] = r.result ?? [];
  return rows.map((row) => Object.fromEntries((header ?? []).map((h, i) => [h ?? '', row[i] ?? null])));
}

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

const json = (text: string | null): unknown => (text === null ? null : JSON.parse(text));

/** Rows a page of events or invocations shows (pages are numbered from 0, the latest first). */
export const PAGE = 50;

/** A trigger's pending (not yet delivered nor failed) or processed events, newest first: page `page`. */
export async function triggerEvents(at: TriggerAt, processed: boolean, page = 0): Promise<TriggerEvent[]> {
  const rows = await select(
    `SELECT id, to_json(created_at) #>> '{}' AS created_at, delivered, error, tries, payload, to_json(next_retry_at) #>> '{}' AS next_retry_at
     FROM service_catalog.event_log WHERE trigger_name = ${literal(at.trigger.name)} AND NOT archived AND ${processed ? '' : 'NOT '}(delivered OR error)
     ORDER BY created_at DESC LIMIT ${PAGE} OFFSET ${page * PAGE}`,
    at.source,
  );
  return rows.map((r) => ({
    id: r.id ?? '',
    created_at: r.created_at ?? '',
    status: r.delivered === 't' ? 'delivered' : r.error === 't' ? 'error' : 'pending',
    tries: Number(r.tries),
    payload: json(r.payload ?? null),
    next_retry_at: r.next_retry_at ?? null,
  }));
}

/** A trigger's invocation logs (or one event's), newest first: page `page`. */
export async function triggerInvocations(at: TriggerAt, eventId?: string, page = 0): Promise<Invocation[]> {
  const event = eventId === undefined ? '' : ` AND event_id = ${literal(eventId)}`;
  const rows = await select(
    `SELECT id, event_id, status, request, response, to_json(created_at) #>> '{}' AS created_at
     FROM service_catalog.event_invocation_logs WHERE trigger_name = ${literal(at.trigger.name)}${event} ORDER BY created_at DESC LIMIT ${PAGE} OFFSET ${page * PAGE}`,
    at.source,
  );
  return rows.map((r) => ({
    id: r.id ?? '',
    event_id: r.event_id ?? '',
    status: r.status === null || r.status === undefined ? null : Number(r.status),
    request: json(r.request ?? null),
    response: json(r.response ?? null),
    created_at: r.created_at ?? '',
  }));
}

/** A table's first rows as JSON objects (what a manual invocation sends). */
export async function tableRows(source: string, table: QualifiedTable, limit = 20): Promise<Record<string, unknown>[]> {
  const rows = await select(`SELECT row_to_json(t)::text AS row FROM ${ident(table.schema)}.${ident(table.name)} t LIMIT ${limit}`, source);
  return rows.map((r) => json(r.row ?? null) as Record<string, unknown>);
}

/** A table's column names, in order. */
export async function tableColumns(source: string, table: QualifiedTable): Promise<string[]> {
  const rows = await select(
    `SELECT column_name FROM information_schema.columns WHERE table_schema = ${literal(table.schema)} AND table_name = ${literal(table.name)} ORDER BY ordinal_position`,
    source,
  );
  return rows.map((r) => r.column_name ?? '');
}

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
