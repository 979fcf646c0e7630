/**
 * What every backend's event triggers share (no dialect here): the database triggers' names,
 * how a sync compares the triggers installed with those wanted, and the rows of an event log
 * as the trigger-delivery actor sees them.
 */
import type { EventRecord } from './faces/events.js';
import type { EventOutcome, InvocationRecord } from '../db/event-invocations.js';

export const TRIGGER_PREFIX = 'service_event_';
export const OPERATIONS = { insert: 'INSERT', update: 'UPDATE', delete: 'DELETE' } as const;
export type Operation = keyof typeof OPERATIONS;

/** The database trigger of one trigger's operation: `service_event_<name>_<OPERATION>`. */
export const databaseTriggerName = (trigger: string, op: Operation) => `${TRIGGER_PREFIX}${trigger}_${OPERATIONS[op]}`;

/** The metadata trigger a database trigger belongs to. */
const metadataTrigger = (databaseTrigger: string) => databaseTrigger.slice(TRIGGER_PREFIX.length, databaseTrigger.lastIndexOf('_'));

/**
 * The triggers of a sync's `gone` whose pending events are set aside now: those none of whose
 * database triggers `failed` to go (the others are tried again by the next sync).
 */
export function archivable(gone: readonly string[], failed: Iterable<string>): string[] {
  const stays = new Set([...failed].map(metadataTrigger));
  return gone.filter((n) => !stays.has(n));
}

/** A trigger in the database or wanted there: its table and what says it is as wanted (a signature, a definition). */
export interface TriggerState {
  schema: string;
  table: string;
  fingerprint: string | null;
}

/**
 * What a sync does: `drop` the installed triggers that are no longer wanted (except those of
 * `keep`, another source's triggers); `create` the wanted ones missing or different (all with
 * `recreate`); `gone`: the triggers (metadata names) that left, whose pending events are set
 * aside (archived: never delivered, removed by the retention and by cleanups).
 */
export function reconcileTriggers<W extends TriggerState>(
  wanted: ReadonlyMap<string, W>,
  installed: readonly (TriggerState & { trigger: string })[],
  names: ReadonlySet<string>,
  keep: ReadonlySet<string>,
  recreate: boolean,
): { drop: (TriggerState & { trigger: string })[]; create: [string, W][]; gone: string[] } {
  const create = new Map(wanted);
  const kept = new Set([...keep].flatMap((name) => (Object.keys(OPERATIONS) as Operation[]).map((op) => databaseTriggerName(name, op))));
  const drop: (TriggerState & { trigger: string })[] = [];
  for (const i of installed) {
    const w = wanted.get(i.trigger);
    const same = w && w.schema === i.schema && w.table === i.table;
    if (same && w.fingerprint === i.fingerprint && !recreate) create.delete(i.trigger);
    else if (!same && !kept.has(i.trigger)) drop.push(i);
  }
  const gone = [...new Set(drop.map((d) => metadataTrigger(d.trigger)))].filter((n) => !names.has(n) && !keep.has(n));
  return { drop, create: [...create], gone };
}

/** A leased event's row (every backend's fetch returns these columns). */
export const eventRecord = (row: Record<string, unknown>): EventRecord => ({
  id: String(row.id),
  trigger: String(row.trigger_name),
  table: { schema: String(row.schema_name), name: String(row.table_name) },
  payload: String(row.payload),
  tries: Number(row.tries),
  createdAt: String(row.created_at),
});

/** The parameters of a backend's finish statement: event, trigger, status, request, response, ms, delivered, error, retry after, instance. */
export const finishParams = (event: EventRecord, invocation: InvocationRecord, outcome: EventOutcome, instance: string): unknown[] => [
  event.id,
  event.trigger,
  invocation.status,
  JSON.stringify(invocation.request),
  JSON.stringify(invocation.response),
  Math.round(invocation.durationMs),
  outcome.kind === 'delivered',
  outcome.kind === 'error',
  outcome.kind === 'retry' ? outcome.afterSeconds : null,
  instance,
];
