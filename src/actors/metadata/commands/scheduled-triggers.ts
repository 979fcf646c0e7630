/**
 * The scheduled trigger operations (spec "Scheduled triggers"): create/delete/get cron
 * triggers (stored in the document's `cron_triggers`), and one-off scheduled events, their
 * listing and invocations (rows of the metadata database, `db/scheduled-events.ts`).
 */
import { SCHEDULED_STATEMENTS } from '../../../db/scheduled-events.js';
import { alreadyExists, badRequest, notExists, parseFailed } from '../../../errors/admin.js';
import { arrayOf, bool, nonEmptyStr, ObjectReader, oneOf, str, type Json, type JsonObject } from '../../../util/decode.js';
import { nonNegative } from '../../../metadata/event-triggers.js';
import { cronTriggers, readCronTrigger, readScheduledEvent, removeCronTrigger } from '../../../metadata/scheduled-triggers.js';
import { SUCCESS, type Command } from './context.js';

const STATUSES = ['scheduled', 'locked', 'delivered', 'error', 'dead'] as const;
const kind = oneOf(['one_off', 'cron'] as const, 'scheduled event type');

export const createCronTrigger: Command = async (ctx, args, path) => {
  const r = ObjectReader.of(args, path);
  const name = r.required('name', nonEmptyStr);
  const replace = r.withDefault('replace', bool, false);
  const stored = readCronTrigger(r, name);
  r.done();
  const existing = cronTriggers(ctx.metadata);
  if (existing.some((t) => t.name === name)) {
    if (!replace) throw alreadyExists(`cron trigger with name: ${name} already exists`, path);
    // Its events still to come follow the new schedule (made again by the delivery actor).
    await ctx.catalogQuery(SCHEDULED_STATEMENTS.deleteCron, [name, false]);
  }
  ctx.metadata.cron_triggers = [...existing.filter((t) => t.name !== name), stored].sort((a, b) => (String(a.name) < String(b.name) ? -1 : 1));
  return { metadata: ctx.metadata, response: SUCCESS };
};

export const deleteCronTrigger: Command = async (ctx, args, path) => {
  const r = ObjectReader.of(args, path);
  const name = r.required('name', nonEmptyStr);
  r.done();
  const existing = cronTriggers(ctx.metadata);
  if (!existing.some((t) => t.name === name)) throw notExists(`cron trigger with name: ${name} does not exist`, r.at('name'));
  removeCronTrigger(ctx.metadata, name);
  await ctx.catalogQuery(SCHEDULED_STATEMENTS.deleteCron, [name, true]);
  return { metadata: ctx.metadata, response: SUCCESS };
};

/** Every cron trigger, those left out of the export (`include_in_metadata: false`) too. */
export const getCronTriggers: Command = (ctx, args, path) => {
  ObjectReader.of(args ?? {}, path).done();
  return { metadata: null, response: { cron_triggers: cronTriggers(ctx.metadata) } };
};

export const createScheduledEvent: Command = async (ctx, args, path) => {
  const r = ObjectReader.of(args, path);
  const event = readScheduledEvent(r);
  r.done();
  const [row] = await ctx.catalogQuery(SCHEDULED_STATEMENTS.createOneOff, [event.scheduleAt, JSON.stringify(event.payload), event.comment, JSON.stringify(event.delivery)]);
  return { metadata: null, response: { message: 'success', event_id: String(row!.id) } };
};

export const deleteScheduledEvent: Command = async (ctx, args, path) => {
  const r = ObjectReader.of(args, path);
  const type = r.required('type', kind);
  const id = r.required('event_id', uuid);
  r.done();
  const rows = await ctx.catalogQuery(SCHEDULED_STATEMENTS.delete, [id, type === 'cron']);
  if (rows.length === 0) throw notExists(`scheduled event ${JSON.stringify(id)} does not exist`, r.at('event_id'));
  return { metadata: null, response: SUCCESS };
};

function page(r: ObjectReader) {
  return { limit: r.optional('limit', nonNegative) ?? null, offset: r.withDefault('offset', nonNegative, 0), count: r.withDefault('get_rows_count', bool, false) };
}

/** Rows with `total` (the count before the page) as `{<key>: rows, count?}`. */
function listed(key: string, rows: Record<string, unknown>[], count: boolean): Json {
  const out: JsonObject = { [key]: rows.map(({ total: _total, ...rest }) => rest as JsonObject) };
  if (count) out.count = rows.length > 0 ? Number(rows[0]!.total) : 0;
  return out;
}

export const getScheduledEvents: Command = async (ctx, args, path) => {
  const r = ObjectReader.of(args, path);
  const type = r.required('type', kind);
  const trigger = r.optional('trigger_name', str) ?? null;
  const statuses = r.optional('status', arrayOf(oneOf(STATUSES, 'status'))) ?? null;
  const { limit, offset, count } = page(r);
  r.done();
  if (type === 'cron' && trigger !== null && !cronTriggers(ctx.metadata).some((t) => t.name === trigger)) {
    throw notExists(`cron trigger with name: ${trigger} does not exist`, r.at('trigger_name'));
  }
  const rows = await ctx.catalogQuery(SCHEDULED_STATEMENTS.list, [type === 'cron', trigger, statuses, limit, offset]);
  return { metadata: null, response: listed('events', rows, count) };
};

export const getScheduledEventInvocations: Command = async (ctx, args, path) => {
  const r = ObjectReader.of(args, path);
  const type = r.required('type', kind);
  const id = r.optional('event_id', uuid) ?? null;
  const trigger = r.optional('trigger_name', str) ?? null;
  const { limit, offset, count } = page(r);
  r.done();
  if (id === null && trigger === null && type === 'cron') throw badRequest('parse-failed', 'expected event_id or trigger_name', path);
  const rows = await ctx.catalogQuery(SCHEDULED_STATEMENTS.invocations, [type === 'cron', id, trigger, limit, offset]);
  return { metadata: null, response: listed('invocations', rows, count) };
};

/** An event id (a UUID). */
export function uuid(v: unknown, path: string): string {
  const s = str(v, path);
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s)) throw parseFailed(`invalid event id ${JSON.stringify(s)}: expected a UUID`, path);
  return s;
}
