/**
 * The event trigger operations (spec "Event triggers"): pg_create_event_trigger,
 * pg_delete_event_trigger, pg_redeliver_event, pg_invoke_event_trigger,
 * cleanup_event_trigger_logs, pause/resume_event_trigger_cleanups, and the deprecated
 * `/v1/query` forms. The database triggers follow the metadata after the change is
 * committed (`actors/metadata/event-triggers.ts`); the operations on events run their
 * statements in the request's transaction of the source.
 */
import type { EventStatements } from '../../../backends/faces/admin.js';
import { ApiError, alreadyExists, badRequest, notExists } from '../../../errors/admin.js';
import { arrayOf, bool, int, isObject, nonEmptyStr, ObjectReader, str, type Json, type JsonObject } from '../../../util/decode.js';
import { cleanupInBatches, eventTriggerColumnProblem, findEventTrigger, readEventTrigger, removeEventTrigger } from '../../../metadata/event-triggers.js';
import { findSource } from '../../../metadata/lookup.js';
import { showTable } from '../../../metadata/names.js';
import type { SourceMetadata } from '../../../metadata/types.js';
import { SUCCESS, type Command, type CommandContext } from './context.js';
import { uuid } from './scheduled-triggers.js';
import { readTableArgs, tableTarget } from './table-objects.js';

export const createEventTrigger: Command = async (ctx, args, path) => {
  const r = ObjectReader.of(args, path);
  const at = readTableArgs(r);
  const name = r.required('name', nonEmptyStr);
  const replace = r.withDefault('replace', bool, false);
  const kind = ctx.metadata.sources.find((s) => s.name === at.source)?.kind ?? 'postgres';
  const stored = readEventTrigger(r, name, process.env, ctx.backend(kind)?.profile.triggerOnReplication ?? false);
  r.done();
  const target = tableTarget(ctx, at);
  if (findEventTrigger(target.source, name) && !replace) throw alreadyExists(`Event trigger with name ${JSON.stringify(name)} already exists`, r.at('name'));
  // Columns made outside run_sql are not in the cached catalog yet. (The `*_from_env` variables
  // were checked above; a `{{ENV}}` webhook is resolution's: an inconsistency, as upstream.)
  if (eventTriggerColumnProblem(stored, target.table, ctx.introspection(target.source.name) ?? null)) await ctx.reloadSources([target.source.name]);
  const problem = eventTriggerColumnProblem(stored, target.table, ctx.introspection(target.source.name) ?? null);
  if (problem) throw new ApiError(400, 'not-exists', `in table ${JSON.stringify(showTable(target.table))}: in event trigger ${JSON.stringify(name)}: ${problem}`, path);
  removeEventTrigger(ctx.metadata, target.source.name, name);
  const entry = tableTarget(ctx, at).entry;
  entry.event_triggers = [...(entry.event_triggers ?? []), stored].sort((a, b) => (String(a.name) < String(b.name) ? -1 : 1));
  return { metadata: ctx.metadata, response: SUCCESS };
};

export const deleteEventTrigger: Command = (ctx, args, path) => {
  const r = ObjectReader.of(args, path);
  const name = r.required('name', str);
  const source = findSource(ctx.metadata, r.withDefault('source', str, 'default'), path);
  r.done();
  triggerOf(source, name, r.at('name'));
  // Its pending events are set aside (archived) when its database triggers go (backends/pg/event-triggers.ts).
  removeEventTrigger(ctx.metadata, source.name, name);
  return { metadata: ctx.metadata, response: SUCCESS };
};

export const redeliverEvent: Command = async (ctx, args, path) => {
  const r = ObjectReader.of(args, path);
  const id = r.required('event_id', uuid);
  const source = findSource(ctx.metadata, r.withDefault('source', str, 'default'), path);
  r.done();
  const rows = await logQuery(ctx, source, path, (s) => s.redeliver, [id]);
  if (rows.length === 0) throw notExists(`event ${JSON.stringify(id)} does not exist`, r.at('event_id'));
  return { metadata: null, response: SUCCESS };
};

export const invokeEventTrigger: Command = async (ctx, args, path) => {
  const r = ObjectReader.of(args, path);
  const name = r.required('name', str);
  const payload = r.required('payload', (v) => v as Json);
  const source = findSource(ctx.metadata, r.withDefault('source', str, 'default'), path);
  r.done();
  const { entry, trigger } = triggerOf(source, name, r.at('name'));
  if (!isObject(trigger.definition) || trigger.definition.enable_manual !== true) {
    throw badRequest('not-supported', `manual mode is not enabled for event trigger ${JSON.stringify(name)}`, r.at('name'));
  }
  // An invocation by an administrator: its session is the event's (as the well-known engine records it).
  const event = { op: 'MANUAL', data: { old: null, new: payload }, session_variables: ctx.session, trace_context: null };
  const rows = await logQuery(ctx, source, path, (s) => s.invoke, [entry.table.schema, entry.table.name, name, JSON.stringify(event)]);
  if (!rows[0]) throw new ApiError(400, 'unexpected', `the event log of source ${JSON.stringify(source.name)} is not ready`, path);
  return { metadata: null, response: { event_id: String(rows[0].id) } };
};

/** Spec "Limits": batches of `batch_size` until none is left; past `timeout` seconds the cleanup halts. */
export const cleanupEventTriggerLogs: Command = async (ctx, args, path) => {
  const r = ObjectReader.of(args, path);
  const name = r.required('event_trigger_name', str);
  const source = findSource(ctx.metadata, r.withDefault('source', str, 'default'), path);
  const positive = (v: unknown, p: string) => {
    const n = int(v, p);
    if (n <= 0) throw badRequest('parse-failed', 'expected a positive integer', p);
    return n;
  };
  const batchSize = r.withDefault('batch_size', positive, 10000);
  const olderThan = r.required('clear_older_than', positive);
  const timeout = r.withDefault('timeout', positive, 60);
  const invocations = r.withDefault('clean_invocation_logs', bool, false);
  r.done();
  triggerOf(source, name, r.at('event_trigger_name'));
  const cleanup = { batchSize, clearOlderThanHours: olderThan, timeoutSeconds: timeout, cleanInvocationLogs: invocations };
  const done = await cleanupInBatches(cleanup, async () => {
    const [row] = await logQuery(ctx, source, path, (s) => s.cleanup, [name, olderThan, batchSize, invocations]);
    return { events: Number(row?.events ?? 0), invocations: Number(row?.invocations ?? 0) };
  });
  // A halted cleanup keeps what it deleted (an error would roll the request's transaction back).
  const response: JsonObject = { deleted_event_logs: done.deleted_event_logs, deleted_event_invocation_logs: done.deleted_event_invocation_logs };
  if (done.timedOut) response.timed_out = true;
  return { metadata: null, response };
};

/** pause_event_trigger_cleanups / resume_event_trigger_cleanups: only triggers with a `cleanup_config`. */
export const setEventTriggerCleanupsPaused =
  (paused: boolean): Command =>
  (ctx, args, path) => {
    const r = ObjectReader.of(args, path);
    const lists = r.required(
      'event_triggers',
      arrayOf((v, p) => {
        const item = ObjectReader.of(v, p);
        const out = { source: item.required('source_name', str), triggers: item.required('event_triggers', arrayOf(str)), path: p };
        item.done();
        return out;
      }),
    );
    r.done();
    for (const list of lists) {
      const source = findSource(ctx.metadata, list.source, list.path);
      list.triggers.forEach((name, i) => {
        const { trigger } = triggerOf(source, name, `${list.path}.event_triggers[${i}]`);
        if (!trigger.cleanup_config) throw badRequest('not-supported', `event trigger ${JSON.stringify(name)} has no cleanup configuration`, `${list.path}.event_triggers[${i}]`);
        // The draft's own object: found again through the draft document.
        const cleanup = trigger.cleanup_config as JsonObject;
        if (cleanup.paused !== paused) cleanup.paused = paused;
      });
    }
    return { metadata: ctx.metadata, response: SUCCESS };
  };

function triggerOf(source: SourceMetadata, name: string, path: string) {
  const found = findEventTrigger(source, name);
  if (!found) throw notExists(`event trigger ${JSON.stringify(name)} does not exist`, path);
  return found;
}

function eventStatements(ctx: CommandContext, source: SourceMetadata, path: string): EventStatements {
  const statements = ctx.backend(source.kind)?.eventStatements;
  if (!statements) throw badRequest('not-supported', `event triggers are not supported on sources of kind ${JSON.stringify(source.kind)}`, path);
  return statements;
}

async function logQuery(ctx: CommandContext, source: SourceMetadata, path: string, pick: (s: EventStatements) => string, params: unknown[]): Promise<Record<string, unknown>[]> {
  const statements = eventStatements(ctx, source, path);
  if (!(await ctx.query(source.name, statements.hasLog, []))[0]?.ready) return [];
  return ctx.query(source.name, pick(statements), params);
}
