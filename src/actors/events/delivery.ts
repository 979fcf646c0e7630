/**
 * One delivery attempt of a leased event (an event trigger's, a cron trigger's or a one-off
 * scheduled event's): the body the webhook receives (for event triggers, spec "Events" 1 in
 * the well-known engine's shape), the headers, the request transform, the call with its
 * timeout, and what follows: delivered on a 2xx, else a retry after `Retry-After`
 * (seconds) or `interval_sec` while tries remain (`num_retries` retries after the first
 * attempt), else error. Never throws: a failed call or transform is an outcome, recorded.
 */
import { eventParent } from '../../observability/traces/propagation.js';
import { randomFillSync } from 'node:crypto';
import type { EventRecord } from '../../backends/faces/events.js';
import type { EventOutcome, InvocationRecord } from '../../db/event-invocations.js';
import type { EventTriggerView } from '../../metadata/event-triggers.js';
import type { HttpClient } from '../../outgoing/http-client.js';
import { decodeJson } from '../../templates/apply-transform.js';
import { buildCall, transformResponseBody } from '../../outgoing/transformed-call.js';
import type { RequestTransform, ResponseTransform } from '../../templates/request-transform.js';

interface StoredEvent {
  op: string;
  data: { old: unknown; new: unknown };
  session_variables: Record<string, string> | null;
  trace_context: unknown;
}

/** What is recorded of a response body (the rest is cut). */
const RECORDED_BODY_CHARS = 64 * 1024;

/** Where and how an event is sent (an event trigger, a cron trigger, a one-off event). */
export interface DeliveryTarget {
  webhook: string;
  headers: [string, string][];
  retry: { numRetries: number; intervalSec: number; timeoutSec: number };
  requestTransform?: RequestTransform;
  responseTransform?: ResponseTransform;
}

export interface Attempt {
  invocation: InvocationRecord;
  outcome: EventOutcome;
}

/**
 * Trace ids come from a pool of random bytes filled 4 KiB at a time: two `randomBytes` calls
 * per event cost more than the rest of its body (CPU profile of bench/events.mjs).
 */
const randomPool = Buffer.alloc(4096);
let randomUsed = randomPool.length;

function randomHex(bytes: number): string {
  if (randomUsed + bytes > randomPool.length) {
    randomFillSync(randomPool);
    randomUsed = 0;
  }
  randomUsed += bytes;
  return randomPool.toString('hex', randomUsed - bytes, randomUsed);
}

/** The webhook's body for an event. */
export function eventBody(event: EventRecord, trigger: EventTriggerView): Record<string, unknown> {
  const stored = JSON.parse(event.payload) as StoredEvent;
  return {
    event: {
      session_variables: stored.session_variables,
      op: stored.op,
      data: stored.data,
      trace_context: stored.trace_context ?? { trace_id: randomHex(16), span_id: randomHex(8) },
    },
    created_at: event.createdAt,
    id: event.id,
    delivery_info: { max_retries: trigger.retry.numRetries, current_retry: event.tries },
    trigger: { name: trigger.name },
    table: { schema: event.table.schema, name: event.table.name },
  };
}

/** The response body as recorded: through the response transform when there is one. */
function recordedBody(answer: string, t: ResponseTransform | undefined, webhook: string): unknown {
  // The event log's binary JSON has no NUL character: an answer holding one could not be recorded.
  const text = answer.replaceAll('\u0000', '');
  if (!t?.body) return text.slice(0, RECORDED_BODY_CHARS);
  const result = transformResponseBody(t, text, webhook);
  if (!result.ok) return { response_transform_errors: result.errors, body: text.slice(0, RECORDED_BODY_CHARS) };
  return decodeJson(result.body) ?? result.body;
}

/** `Retry-After` in seconds (the date form is not used by webhooks in practice). */
function retryAfter(value: string | string[] | undefined): number | null {
  const text = Array.isArray(value) ? value[0] : value;
  if (text === undefined || !/^\d+$/.test(text.trim())) return null;
  return Number(text.trim());
}

function afterFailure(tries: number, trigger: DeliveryTarget, retryAfterSeconds: number | null): EventOutcome {
  if (tries >= trigger.retry.numRetries) return { kind: 'error' };
  return { kind: 'retry', afterSeconds: retryAfterSeconds ?? trigger.retry.intervalSec };
}

/**
 * Sends `payload`; `tries`: the attempts before this one; `span`: the name of the call's client span
 * (when traced: in the trace an event's `trace_context` names, the one of the mutation that made
 * it, else a trace of its own); `session`: what `$session_variables` is to the transform.
 */
export async function deliver(client: HttpClient, trigger: DeliveryTarget, payload: Record<string, unknown>, tries: number, span: string, session?: Record<string, string>): Promise<Attempt> {
  const started = performance.now();
  const built = buildCall(trigger.webhook, trigger.headers, trigger.requestTransform, payload, session);
  const duration = () => performance.now() - started;
  if (!built.ok) {
    // A transform that fails fails every time: no retry (the invocation says why).
    const response = { type: 'client_error', data: { message: built.message, errors: built.errors ?? null }, version: '2' };
    return { invocation: { status: null, request: { payload, headers: [], version: '2' }, response, durationMs: duration() }, outcome: { kind: 'error' } };
  }
  const { call } = built;
  const request = { payload: call.recorded, headers: call.headers.map(([name, value]) => ({ name, value })), url: call.url, method: call.method, version: '2' };
  try {
    const answer = await client.send(new URL(call.url), { method: call.method, headers: Object.fromEntries(call.headers), body: call.body, span: { name: span, parent: eventParent((payload.event as { trace_context?: unknown } | undefined)?.trace_context) } }, trigger.retry.timeoutSec * 1000);
    const text = answer.body.toString('utf8');
    const response = {
      type: 'webhook_response',
      data: {
        status: answer.status,
        body: recordedBody(text, trigger.responseTransform, trigger.webhook),
        headers: Object.entries(answer.headers).map(([name, value]) => ({ name, value: Array.isArray(value) ? value.join(', ') : String(value) })),
      },
      version: '2',
    };
    const ok = answer.status >= 200 && answer.status < 300;
    const outcome: EventOutcome = ok ? { kind: 'delivered' } : afterFailure(tries, trigger, retryAfter(answer.headers['retry-after']));
    return { invocation: { status: answer.status, request, response, durationMs: duration() }, outcome };
  } catch (e) {
    const response = { type: 'client_error', data: { message: e instanceof Error ? e.message : String(e) }, version: '2' };
    return { invocation: { status: null, request, response, durationMs: duration() }, outcome: afterFailure(tries, trigger, null) };
  }
}
