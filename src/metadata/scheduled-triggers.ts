/**
 * Cron triggers and one-off scheduled events as stored and delivered (spec "Cron trigger",
 * "Scheduled (one-off) event", "Events" 3): cron triggers in the document's `cron_triggers`
 * (exported when `include_in_metadata`), one-off events only in the metadata database. Both
 * are delivered with a `retry_conf` of `num_retries` 0, `retry_interval_seconds` 10,
 * `timeout_seconds` 60, `tolerance_seconds` 21600 (the well-known engine's defaults).
 */
import { ApiError, parseFailed } from '../errors/admin.js';
import type { RequestTransform, ResponseTransform } from '../templates/webhook-transform.js';
import { ObjectReader, str, type Json, type JsonObject } from '../util/decode.js';
import { checkUrl, cronSchedule, nonNegative, readHeadersAndTransforms, storedWebhook, webhookEnvironmentProblem } from './event-triggers.js';
import type { Inconsistency } from './resolve/types.js';
import type { Metadata } from './types.js';
import { fillUrlTemplate } from './url-template.js';

export const SCHEDULED_RETRY_DEFAULTS = { num_retries: 0, retry_interval_seconds: 10, timeout_seconds: 60, tolerance_seconds: 21600 } as const;

/** Where and how a scheduled event is sent (environment variables resolved). */
export interface ScheduledTarget {
  webhook: string;
  headers: [string, string][];
  retry: { numRetries: number; intervalSec: number; timeoutSec: number; toleranceSec: number };
  requestTransform?: RequestTransform;
  responseTransform?: ResponseTransform;
}

/** A cron trigger as the delivery actor sees it. */
export interface CronTriggerView extends ScheduledTarget {
  name: string;
  schedule: string;
  payload: Json;
  comment: string | null;
}

function retryConf(v: unknown, path: string): JsonObject {
  const r = ObjectReader.of(v, path);
  const out: JsonObject = {};
  for (const [key, dflt] of Object.entries(SCHEDULED_RETRY_DEFAULTS)) out[key] = r.withDefault(key, nonNegative, dflt);
  r.done();
  return out;
}

/** The delivery settings shared by cron triggers and one-off events: headers, retry_conf, transforms. */
function readDelivery(r: ObjectReader, out: JsonObject): void {
  readHeadersAndTransforms(r, out, process.env);
  out.retry_conf = r.withDefault('retry_conf', retryConf, { ...SCHEDULED_RETRY_DEFAULTS });
  const comment = r.optional('comment', str);
  if (comment !== undefined) out.comment = comment;
}

/** `create_cron_trigger`'s arguments (`name` and `replace` read already) as stored. */
export function readCronTrigger(r: ObjectReader, name: string): JsonObject {
  const out: JsonObject = { name, webhook: r.required('webhook', (v, p) => checkUrl(str(v, p), p)), schedule: r.required('schedule', cronSchedule) };
  if (r.has('payload')) out.payload = r.value.payload!;
  r.ignore('payload');
  out.include_in_metadata = r.required('include_in_metadata', (v, p) => {
    if (typeof v !== 'boolean') throw parseFailed('expected a boolean', p);
    return v;
  });
  readDelivery(r, out);
  return out;
}

/**
 * A one-off event's webhook: kept as given, a `{{ENV}}` template filled in when the event is
 * delivered. No metadata holds the event, so what cannot be filled in now is refused (as its
 * headers' `value_from_env` are) rather than reported inconsistent.
 */
function oneOffWebhook(v: unknown, path: string): string {
  const webhook = checkUrl(str(v, path), path);
  try {
    fillUrlTemplate(webhook, process.env);
  } catch (e) {
    throw new ApiError(400, 'invalid-configuration', `invalid webhook URL: ${(e as Error).message}`, path);
  }
  return webhook;
}

/** `create_scheduled_event`'s arguments as what the event row keeps of its delivery. */
export function readScheduledEvent(r: ObjectReader): { scheduleAt: string; payload: Json; comment: string | null; delivery: JsonObject } {
  const delivery: JsonObject = { webhook: r.required('webhook', oneOffWebhook) };
  const scheduleAt = r.required('schedule_at', (v, p) => {
    const text = str(v, p);
    if (Number.isNaN(Date.parse(text))) throw parseFailed(`invalid ISO 8601 timestamp ${JSON.stringify(text)}`, p);
    return new Date(text).toISOString();
  });
  const payload = (r.value.payload ?? null) as Json;
  r.ignore('payload');
  readDelivery(r, delivery);
  const comment = typeof delivery.comment === 'string' ? delivery.comment : null;
  delete delivery.comment;
  return { scheduleAt, payload, comment, delivery };
}

/** The stored delivery settings (a cron trigger, or a one-off event's) resolved; null when an environment variable is missing. */
export function scheduledTarget(stored: JsonObject, env: NodeJS.ProcessEnv): ScheduledTarget | null {
  const webhook = storedWebhook(stored, env);
  if (webhook === null) return null;
  const headers: [string, string][] = [];
  for (const h of (stored.headers as JsonObject[] | undefined) ?? []) {
    const value = typeof h.value === 'string' ? h.value : env[String(h.value_from_env)];
    if (value === undefined) return null;
    headers.push([String(h.name), value]);
  }
  const rc = { ...SCHEDULED_RETRY_DEFAULTS, ...(stored.retry_conf as JsonObject | undefined) } as Record<keyof typeof SCHEDULED_RETRY_DEFAULTS, number>;
  const target: ScheduledTarget = {
    webhook,
    headers,
    retry: { numRetries: rc.num_retries, intervalSec: rc.retry_interval_seconds, timeoutSec: rc.timeout_seconds, toleranceSec: rc.tolerance_seconds },
  };
  if (stored.request_transform) target.requestTransform = stored.request_transform as unknown as RequestTransform;
  if (stored.response_transform) target.responseTransform = stored.response_transform as unknown as ResponseTransform;
  return target;
}

export function cronTriggers(m: Metadata): JsonObject[] {
  return Array.isArray(m.cron_triggers) ? (m.cron_triggers as JsonObject[]) : [];
}

/** Removes a cron trigger from a draft document (no-op when it is not there). */
export function removeCronTrigger(m: Metadata, name: string): void {
  const rest = cronTriggers(m).filter((t) => t.name !== name);
  if (rest.length > 0) m.cron_triggers = rest;
  else delete m.cron_triggers;
}

/**
 * The cron triggers whose webhook or headers cannot be made from the environment (a variable
 * not set, a `{{ENV}}` webhook that is no http(s) URL once filled in): inconsistent, as the
 * well-known engine reports them (`cron_trigger <name>`), and not scheduled.
 */
export function cronTriggerInconsistencies(m: Metadata, env: NodeJS.ProcessEnv): Inconsistency[] {
  return cronTriggers(m).flatMap((t) => {
    const name = String(t.name);
    const problem = webhookEnvironmentProblem(t, env);
    if (!problem) return [];
    return [
      {
        object: { type: 'cron_trigger', name: `cron_trigger ${name}`, definition: t, reason: `Inconsistent object: in cron trigger ${JSON.stringify(name)}: ${problem}` },
        remove: (d: Metadata) => removeCronTrigger(d, name),
      },
    ];
  });
}

/** The cron triggers as the delivery actor sees them (those missing an environment variable left out). */
export function cronTriggerViews(m: Metadata): CronTriggerView[] {
  return cronTriggers(m).flatMap((t) => {
    const target = scheduledTarget(t, process.env);
    return target ? [{ ...target, name: String(t.name), schedule: String(t.schedule), payload: (t.payload ?? null) as Json, comment: typeof t.comment === 'string' ? t.comment : null }] : [];
  });
}
