/**
 * Event triggers as stored in a table entry's `event_triggers` (spec "Event trigger"), in the
 * well-known engine's export shape: `{name, definition: {enable_manual, insert, update,
 * delete}, retry_conf, webhook | webhook_from_env, headers, request_transform,
 * response_transform, cleanup_config, trigger_on_replication}`. This module reads the
 * arguments of `pg_create_event_trigger` into that shape, and reads the stored shape back as
 * what a database needs (`EventTriggerInstall`) and what the delivery actor needs
 * (`EventTriggerView`), and finds the inconsistent ones (an environment variable missing at
 * boot, a column gone).
 */
import { Cron } from 'croner';
import { ApiError, parseFailed } from '../errors/admin.js';
import { parseRequestTransform, parseResponseTransform, type RequestTransform, type ResponseTransform } from '../templates/webhook-transform.js';
import { arrayOf, bool, int, isObject, obj, ObjectReader, str, type Json, type JsonObject } from '../util/decode.js';
import type { DatabaseCatalog, QualifiedName } from '../catalog/types.js';
import { sameTable, showTable } from './names.js';
import { checkUrlOrTemplate, fillUrlTemplate } from './url-template.js';
import type { Inconsistency, SourceCatalog } from './resolve/types.js';
import type { Metadata, SourceMetadata, TableMetadata } from './types.js';
import { entriesWith } from './entries-with.js';

export const OPERATIONS = ['insert', 'update', 'delete'] as const;
export type Operation = (typeof OPERATIONS)[number];

/** Spec "Event trigger": `retry_conf` defaults (the well-known engine's). */
export const RETRY_DEFAULTS = { num_retries: 0, interval_sec: 10, timeout_sec: 60 } as const;

/**
 * The database trigger is `service_event_<name>_<OPERATION>` (PostgreSQL names stop at 63
 * bytes), so names are short and plain, as the well-known engine requires.
 */
/** A trigger name, as the well-known engine takes it: a letter first, then letters, digits, `_` and `-`. */
const NAME = /^[A-Za-z][A-Za-z0-9_-]*$/;
/** The database trigger's name is made from it (`service_event_<name>_INSERT`), within PostgreSQL's 63 bytes. */
const MAX_NAME_LENGTH = 42;

/** What the trigger-delivery actor needs of a trigger (environment variables resolved). */
export interface EventTriggerView {
  source: string;
  name: string;
  table: QualifiedName;
  webhook: string;
  headers: [string, string][];
  retry: { numRetries: number; intervalSec: number; timeoutSec: number };
  requestTransform?: RequestTransform;
  responseTransform?: ResponseTransform;
  /** The scheduled log cleanup (`cleanup_config`), unless paused. */
  cleanup?: LogCleanup;
}

/** One run of a log cleanup: `cleanup_event_trigger_logs`'s arguments (and, scheduled, its `schedule`). */
export interface LogCleanup {
  schedule?: string;
  batchSize: number;
  clearOlderThanHours: number;
  timeoutSeconds: number;
  cleanInvocationLogs: boolean;
}


/**
 * The arguments of `<kind>_create_event_trigger` (`r`, with `name`, `table`, `source` read
 * already) as the stored object; `trigger_on_replication` is stored when it is not the
 * source kind's default (`onReplication`).
 */
export function readEventTrigger(r: ObjectReader, name: string, env: NodeJS.ProcessEnv, onReplication = false): JsonObject {
  // The well-known engine's messages, at the path of the arguments (its decoder of the whole object fails).
  if (!NAME.test(name)) throw parseFailed('only alphanumeric and underscore and hyphens allowed for name', r.path);
  if (name.length > MAX_NAME_LENGTH) throw parseFailed(`event trigger name can be at most ${MAX_NAME_LENGTH} characters`, r.path);
  const definition: JsonObject = { enable_manual: r.withDefault('enable_manual', bool, false) };
  for (const op of OPERATIONS) {
    const spec = r.optional(op, operationSpec);
    if (spec) definition[op] = spec;
  }
  if (!OPERATIONS.some((op) => definition[op]) && definition.enable_manual !== true) {
    throw parseFailed('atleast one amongst insert/update/delete/enable_manual spec must be provided', r.path);
  }
  const stored: JsonObject = { name, definition, retry_conf: r.withDefault('retry_conf', retryConf, { ...RETRY_DEFAULTS }) };
  const webhook = r.optional('webhook', str);
  const fromEnv = r.optional('webhook_from_env', str);
  if (webhook !== undefined && fromEnv !== undefined) throw parseFailed('Only one of webhook or webhook_from_env should be given', r.path);
  if (webhook !== undefined) stored.webhook = checkUrl(webhook, r.at('webhook'));
  else if (fromEnv !== undefined) {
    const value = env[fromEnv];
    if (value === undefined) throw new ApiError(400, 'not-found', `environment variable ${JSON.stringify(fromEnv)} not set`, r.at('webhook_from_env'));
    checkUrl(value, r.at('webhook_from_env'));
    stored.webhook_from_env = fromEnv;
  } else throw parseFailed('must provide webhook or webhook_from_env', r.path);
  readHeadersAndTransforms(r, stored, env);
  const cleanup = r.optional('cleanup_config', cleanupConfig);
  if (cleanup) stored.cleanup_config = cleanup;
  const replication = r.withDefault('trigger_on_replication', bool, onReplication);
  if (replication !== onReplication) stored.trigger_on_replication = replication;
  return stored;
}

/**
 * A stored trigger in a whole document (replace_metadata): checked as its arguments would be,
 * except that environment variables are not looked up (a missing one makes the trigger
 * inconsistent, not the document refused).
 */
export function storedEventTrigger(v: unknown, path: string): JsonObject {
  const r = ObjectReader.of(v, path);
  const name = r.required('name', str);
  const definition = r.required('definition', obj);
  const { name: _name, definition: _definition, ...rest } = r.value;
  const args = new ObjectReader({ ...rest, ...definition }, path);
  const stored = readEventTrigger(args, name, ANY_ENV);
  args.done();
  // The source's kind is not known here: an explicit value is kept as it is.
  if (typeof rest.trigger_on_replication === 'boolean') stored.trigger_on_replication = rest.trigger_on_replication;
  return stored;
}

/** Every variable set, to a URL: a document's references are checked by resolution instead. */
const ANY_ENV: NodeJS.ProcessEnv = new Proxy({}, { get: () => 'http://environment.invalid/' });

function operationSpec(v: unknown, path: string): JsonObject {
  const r = ObjectReader.of(v, path);
  const out: JsonObject = { columns: r.required('columns', columnList) };
  const payload = r.optional('payload', columnList);
  if (payload !== undefined) out.payload = payload;
  r.done();
  return out;
}

function columnList(v: unknown, path: string): Json {
  if (v === '*') return '*';
  if (Array.isArray(v)) return arrayOf(str)(v, path);
  throw parseFailed('expected "*" or a list of column names', path);
}

export function nonNegative(x: unknown, p: string): number {
  const n = int(x, p);
  if (n < 0) throw parseFailed('expected a non-negative integer', p);
  return n;
}

function retryConf(v: unknown, path: string): JsonObject {
  const r = ObjectReader.of(v, path);
  const out = {
    num_retries: r.withDefault('num_retries', nonNegative, RETRY_DEFAULTS.num_retries),
    interval_sec: r.withDefault('interval_sec', nonNegative, RETRY_DEFAULTS.interval_sec),
    timeout_sec: r.withDefault('timeout_sec', nonNegative, RETRY_DEFAULTS.timeout_sec),
  };
  if (out.timeout_sec === 0) throw parseFailed('timeout_sec must be positive', r.at('timeout_sec'));
  r.done();
  return out;
}

/** `headers` (left out when empty) and `request_transform` / `response_transform` (their templates must parse) into `out`. */
export function readHeadersAndTransforms(r: ObjectReader, out: JsonObject, env: NodeJS.ProcessEnv): void {
  const headers = r.optional('headers', (v, p) => readHeaders(v, p, env));
  if (headers && headers.length > 0) out.headers = headers;
  for (const [key, parse] of [
    ['request_transform', parseRequestTransform],
    ['response_transform', parseResponseTransform],
  ] as const) {
    if (!r.has(key)) continue;
    const t = parse(r.value[key], r.at(key), r.path);
    if ('code' in t && 'error' in t) throw new ApiError(400, t.code, t.error, t.path, t.internal);
    out[key] = r.value[key]!;
  }
  r.ignore('request_transform', 'response_transform');
}

/** `headers`: `{name, value}` or `{name, value_from_env}` (the variable must be set). */
export function readHeaders(v: unknown, path: string, env: NodeJS.ProcessEnv): JsonObject[] {
  return arrayOf((x, p) => header(x, p, env))(v, path);
}

function header(v: unknown, path: string, env: NodeJS.ProcessEnv): JsonObject {
  const r = ObjectReader.of(v, path);
  const name = r.required('name', str);
  const value = r.optional('value', str);
  const fromEnv = r.optional('value_from_env', str);
  r.done();
  if ((value === undefined) === (fromEnv === undefined)) throw parseFailed('expected exactly one of value or value_from_env', path);
  if (fromEnv !== undefined && env[fromEnv] === undefined) throw new ApiError(400, 'not-found', `environment variable ${JSON.stringify(fromEnv)} not set`, `${path}.value_from_env`);
  return value !== undefined ? { name, value } : { name, value_from_env: fromEnv! };
}

/** `cleanup_config` (spec "Event trigger"): `schedule` and `clear_older_than` required. */
function cleanupConfig(v: unknown, path: string): JsonObject {
  const r = ObjectReader.of(v, path);
  const positive = (x: unknown, p: string) => {
    const n = int(x, p);
    if (n <= 0) throw parseFailed('expected a positive integer', p);
    return n;
  };
  const out: JsonObject = {
    schedule: r.required('schedule', cronSchedule),
    batch_size: r.withDefault('batch_size', positive, 10000),
    clear_older_than: r.required('clear_older_than', positive),
    timeout: r.withDefault('timeout', positive, 60),
    clean_invocation_logs: r.withDefault('clean_invocation_logs', bool, false),
    paused: r.withDefault('paused', bool, false),
  };
  r.done();
  return out;
}

/** A cron expression of five fields (minute hour day-of-month month day-of-week), as the well-known engine takes. */
export function cronSchedule(v: unknown, path: string): string {
  const text = str(v, path);
  try {
    if (text.trim().split(/\s+/).length !== 5) throw new Error('expected five fields');
    new Cron(text, { paused: true }).stop();
  } catch (e) {
    throw parseFailed(`invalid cron expression ${JSON.stringify(text)}: ${e instanceof Error ? e.message : String(e)}`, path);
  }
  return text;
}

/** A webhook URL (absolute http(s)) or `{{ENV}}` template (checked once its variables are known). */
export function checkUrl(url: string, path: string): string {
  try {
    return checkUrlOrTemplate(url);
  } catch (e) {
    throw parseFailed(`invalid webhook URL: ${(e as Error).message}`, path);
  }
}

/** Every event trigger of a source with its table entry. */
export function sourceEventTriggers(s: SourceMetadata): { entry: TableMetadata; trigger: JsonObject }[] {
  // Run for every metadata version over thousands of entries that mostly have none.
  const out: { entry: TableMetadata; trigger: JsonObject }[] = [];
  for (const i of entriesWith(s.tables, 'event_triggers')) {
    const entry = s.tables[i]!;
    for (const trigger of entry.event_triggers!) out.push({ entry, trigger });
  }
  return out;
}

/** The trigger of that name in a source, if any. */
export function findEventTrigger(s: SourceMetadata, name: string): { entry: TableMetadata; trigger: JsonObject } | undefined {
  return sourceEventTriggers(s).find((t) => t.trigger.name === name);
}

/** An operation of a stored definition (a document given to replace_metadata is read as leniently: anything odd is `*`). */
function operation(definition: Json | undefined, op: Operation): EventOperation | undefined {
  const spec = isObject(definition) ? definition[op] : undefined;
  if (!isObject(spec)) return undefined;
  const list = (v: Json | undefined): '*' | string[] => (Array.isArray(v) ? v.map(String) : '*');
  return { columns: list(spec.columns), payload: list(spec.payload) };
}

/** What the database needs of a stored trigger. */
export function installSpec(table: QualifiedName, trigger: JsonObject, triggerOnReplication: boolean): EventTriggerInstall {
  const definition = trigger.definition;
  const onReplication = typeof trigger.trigger_on_replication === 'boolean' ? trigger.trigger_on_replication : triggerOnReplication;
  const out: EventTriggerInstall = { name: String(trigger.name), table, triggerOnReplication: onReplication };
  for (const op of OPERATIONS) {
    const spec = operation(definition, op);
    if (spec) out[op] = spec;
  }
  return out;
}

/** A stored trigger as the delivery actor sees it; null when an environment variable it needs is missing. */
export function deliveryView(source: string, table: QualifiedName, t: JsonObject, env: NodeJS.ProcessEnv): EventTriggerView | null {
  const webhook = storedWebhook(t, env);
  if (webhook === null) return null;
  const headers: [string, string][] = [];
  for (const h of (t.headers as JsonObject[] | undefined) ?? []) {
    const value = typeof h.value === 'string' ? h.value : env[String(h.value_from_env)];
    if (value === undefined) return null;
    headers.push([String(h.name), value]);
  }
  const retry = { ...RETRY_DEFAULTS, ...(t.retry_conf as JsonObject | undefined) } as { num_retries: number; interval_sec: number; timeout_sec: number };
  const view: EventTriggerView = {
    source,
    name: String(t.name),
    table,
    webhook,
    headers,
    retry: { numRetries: retry.num_retries, intervalSec: retry.interval_sec, timeoutSec: retry.timeout_sec },
  };
  if (t.request_transform) view.requestTransform = t.request_transform as unknown as RequestTransform;
  if (t.response_transform) view.responseTransform = t.response_transform as unknown as ResponseTransform;
  const c = t.cleanup_config as JsonObject | undefined;
  if (c && c.paused !== true) {
    view.cleanup = {
      schedule: String(c.schedule),
      batchSize: Number(c.batch_size),
      clearOlderThanHours: Number(c.clear_older_than),
      timeoutSeconds: Number(c.timeout),
      cleanInvocationLogs: c.clean_invocation_logs === true,
    };
  }
  return view;
}

/** The webhook a stored trigger or scheduled event calls (`webhook` filled in, or `webhook_from_env`'s value); null when it cannot be made. */
export function storedWebhook(t: JsonObject, env: NodeJS.ProcessEnv): string | null {
  if (typeof t.webhook !== 'string') return env[String(t.webhook_from_env)] ?? null;
  try {
    return fillUrlTemplate(t.webhook, env);
  } catch {
    return null;
  }
}

/**
 * Why a stored trigger's webhook or headers cannot be made from the environment (a variable not
 * set, a template that is no URL once filled in), or null. Cron triggers' too (same fields).
 */
export function webhookEnvironmentProblem(t: JsonObject, env: NodeJS.ProcessEnv): string | null {
  const missingEnv = [t.webhook_from_env, ...((t.headers as JsonObject[] | undefined) ?? []).map((h) => h.value_from_env)].find(
    (name) => typeof name === 'string' && env[name] === undefined,
  );
  if (typeof missingEnv === 'string') return `environment variable ${JSON.stringify(missingEnv)} not set`;
  if (typeof t.webhook !== 'string') return null;
  try {
    fillUrlTemplate(t.webhook, env);
    return null;
  } catch (e) {
    return `invalid webhook URL: ${(e as Error).message}`;
  }
}

/** Why a stored trigger's operations cannot be installed: a column they name is not in the table, or null. */
export function eventTriggerColumnProblem(t: JsonObject, table: QualifiedName, catalog: DatabaseCatalog | null): string | null {
  const columns = catalog?.tables.find((c) => sameTable(c, table))?.columns;
  if (!columns) return null;
  for (const op of OPERATIONS) {
    const spec = operation(t.definition, op);
    for (const list of [spec?.columns, spec?.payload]) {
      const missing = Array.isArray(list) ? list.find((c) => !columns.some((x) => x.name === c)) : undefined;
      if (missing !== undefined) return `column ${JSON.stringify(missing)} does not exist in table ${JSON.stringify(showTable(table))}`;
    }
  }
  return null;
}

/** The inconsistent event triggers of a document (type `event_trigger`, as the well-known engine names them). */
export function eventTriggerInconsistencies(m: Metadata, catalogs: ReadonlyMap<string, SourceCatalog>, env: NodeJS.ProcessEnv): Inconsistency[] {
  const out: Inconsistency[] = [];
  for (const s of m.sources) {
    for (const { entry, trigger } of sourceEventTriggers(s)) {
      const problem = webhookEnvironmentProblem(trigger, env) ?? eventTriggerColumnProblem(trigger, entry.table, catalogs.get(s.name)?.introspection ?? null);
      if (!problem) continue;
      const name = String(trigger.name);
      out.push({
        object: {
          type: 'event_trigger',
          name: eventTriggerObjectName(name, entry.table, s.name),
          definition: { source: s.name, table: entry.table as unknown as Json, configuration: trigger },
          reason: `Inconsistent object: in table ${JSON.stringify(showTable(entry.table))}: in event trigger ${JSON.stringify(name)}: ${problem}`,
        },
        remove: (draft) => removeEventTrigger(draft, s.name, name),
      });
    }
  }
  return out;
}

/** How an inconsistent trigger is named (`event_trigger t in table author in source default`). */
export const eventTriggerObjectName = (name: string, table: QualifiedName, source: string) => `event_trigger ${name} in table ${showTable(table)} in source ${source}`;

/** Removes a trigger from a draft document (no-op when it is not there). */
export function removeEventTrigger(m: Metadata, source: string, name: string): void {
  const s = m.sources.find((x) => x.name === source);
  const found = s && findEventTrigger(s, name);
  if (!found) return;
  const rest = found.entry.event_triggers!.filter((t) => t.name !== name);
  if (rest.length > 0) found.entry.event_triggers = rest;
  else delete found.entry.event_triggers;
}

export interface CleanupCounts {
  deleted_event_logs: number;
  deleted_event_invocation_logs: number;
}

/**
 * Spec "Limits": a log cleanup deletes batches of `batchSize` until fewer are left; past
 * `timeoutSeconds` it stops (`timedOut`), and what was deleted stays deleted.
 */
export async function cleanupInBatches(c: LogCleanup, batch: () => Promise<{ events: number; invocations: number }>): Promise<CleanupCounts & { timedOut: boolean }> {
  const deadline = Date.now() + c.timeoutSeconds * 1000;
  const out = { deleted_event_logs: 0, deleted_event_invocation_logs: 0, timedOut: false };
  for (;;) {
    const { events, invocations } = await batch();
    out.deleted_event_logs += events;
    out.deleted_event_invocation_logs += invocations;
    if (events < c.batchSize) return out;
    if (Date.now() > deadline) return { ...out, timedOut: true };
  }
}

/** An operation's columns (`*` or a list): those whose change fires an UPDATE, and those sent. */
export interface EventOperation {
  columns: '*' | string[];
  payload: '*' | string[];
}

/** What a database needs of one event trigger. */
export interface EventTriggerInstall {
  name: string;
  table: QualifiedName;
  insert?: EventOperation;
  update?: EventOperation;
  delete?: EventOperation;
  triggerOnReplication: boolean;
}
