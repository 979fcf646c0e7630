/**
 * Running an action step (protocol/plan.ts `ActionRun`): the input with the request's
 * variables in; a synchronous call of the handler (outgoing/action-call.ts), its output checked
 * against the output type as the selection reads it and projected onto the response keys (the
 * well-known engine's messages: unexpected fields, a non-null field not found); an asynchronous
 * call stored (its id answered); or an asynchronous call's result read back, for the session
 * that made it only.
 */
import { writeLog } from '../log.js';
import type { ActionResult } from '../protocol/messages.js';
import { callActionHandler, forwardedClientHeaders } from '../outgoing/action-call.js';
import type { Context } from '../observability/traces/tracer.js';
import type { HttpClient } from '../outgoing/http-client.js';
import type { ActionOutputType, ActionRun } from '../protocol/plan.js';
import { ApiError } from '../errors/admin.js';
import { ExecutionError } from '../errors/execution.js';

/** What action steps run on: the front thread's outgoing client and the action log (through the trigger-delivery actor). */
export interface ActionCalls {
  client: HttpClient;
  enqueue(action: string, input: unknown, session: Record<string, string>, headers: Record<string, string>, requestQuery: string): Promise<string>;
  result(id: string, action: string, session: Record<string, string>): Promise<ActionResult | null>;
}

export interface ActionCallContext {
  variables: Record<string, unknown>;
  session: Record<string, string>;
  clientHeaders: Record<string, string>;
  /** The handlers' `Set-Cookie` values, gathered for the HTTP response. */
  setCookies: string[];
  /** The request's trace context, when traced: a handler's call is a client span in it. */
  trace?: Context;
  /** The request's id, for its action-handler-log lines. */
  requestId?: string | undefined;
}

const fail = (run: ActionRun, message: string, extensions?: Record<string, unknown>) =>
  new ExecutionError(new ApiError(400, typeof extensions?.code === 'string' ? extensions.code : 'unexpected', message, run.errorPath), extensions);

/** The written input with each `{"$variable": name}` replaced by the variable's value (absent variables leave their key out). */
function withVariables(v: unknown, variables: Record<string, unknown>): unknown {
  if (Array.isArray(v)) return v.map((x) => withVariables(x, variables));
  if (v === null || typeof v !== 'object') return v;
  const o = v as Record<string, unknown>;
  if (typeof o.$variable === 'string' && Object.keys(o).length === 1) return variables[o.$variable];
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(o)) {
    const value = withVariables(x, variables);
    if (value !== undefined) out[k] = value;
  }
  return out;
}

class OutputMismatch extends Error {}

const SCALAR_CHECKS: Record<string, (v: unknown) => boolean> = {
  Int: (v) => typeof v === 'number' && Number.isInteger(v),
  Float: (v) => typeof v === 'number',
  String: (v) => typeof v === 'string',
  Boolean: (v) => typeof v === 'boolean',
  ID: (v) => typeof v === 'string' || (typeof v === 'number' && Number.isInteger(v)),
};

/** The handler's value as the selection reads it; `field`: the field it is the value of, for messages. */
export function projectOutput(t: ActionOutputType, v: unknown, field: string | null): unknown {
  if (t.kind === 'non_null') {
    if (v === null || v === undefined) throw new OutputMismatch(field === null ? 'the webhook response is null, but the output type is non-null' : `field ${JSON.stringify(field)} expected in webhook response, but not found`);
    return projectOutput(t.of, v, field);
  }
  if (v === null || v === undefined) return null;
  const what = field === null ? 'the webhook response' : `field ${JSON.stringify(field)}`;
  switch (t.kind) {
    case 'list':
      if (!Array.isArray(v)) throw new OutputMismatch(`expecting a list for ${what}, but found ${typeof v}`);
      return v.map((x) => projectOutput(t.of, x, field));
    case 'scalar': {
      const check = SCALAR_CHECKS[t.name];
      if (check && !check(v)) throw new OutputMismatch(`expecting a value of type ${t.name} for ${what}, but found ${JSON.stringify(v)}`);
      return t.name === 'ID' ? String(v) : v;
    }
    case 'enum':
      if (typeof v !== 'string' || !t.values.includes(v)) throw new OutputMismatch(`expecting a value of enum ${t.name} for ${what}, but found ${JSON.stringify(v)}`);
      return v;
    case 'object': {
      if (typeof v !== 'object' || Array.isArray(v)) throw new OutputMismatch(`expecting an object for ${what}, but found ${Array.isArray(v) ? 'a list' : typeof v}`);
      const o = v as Record<string, unknown>;
      const unexpected = Object.keys(o).filter((k) => !t.known.includes(k));
      if (unexpected.length > 0) throw new OutputMismatch(`unexpected fields in webhook response: ${unexpected.join(', ')}`);
      const out: Record<string, unknown> = {};
      for (const s of t.selection) out[s.key] = s.field === null ? t.name : projectOutput(s.type!, o[s.field], s.field);
      return out;
    }
  }
}

function shaped(run: ActionRun, value: unknown): string {
  try {
    return JSON.stringify(projectOutput(run.output, value, null));
  } catch (e) {
    if (e instanceof OutputMismatch) throw fail(run, e.message);
    throw e;
  }
}

export async function runActionStep(run: ActionRun, ctx: ActionCallContext, calls: ActionCalls | undefined): Promise<string> {
  if (!calls) throw fail(run, 'actions are not available');
  const input = withVariables(run.input, ctx.variables) as Record<string, unknown>;
  const forwarded = forwardedClientHeaders(run.handler, ctx.clientHeaders);
  if (run.mode === 'enqueue') return JSON.stringify(await calls.enqueue(run.action, input, ctx.session, forwarded, run.requestQuery));
  if (run.mode === 'result') {
    const found = typeof input.id === 'string' ? await calls.result(input.id, run.action, ctx.session) : null;
    // Another session's call is as unknown as a call that was never made.
    return found ? shaped(run, found) : 'null';
  }
  const outcome = await callActionHandler(calls.client, run.handler, { action: { name: run.action }, input, session_variables: ctx.session, request_query: run.requestQuery }, forwarded, process.env, ctx.trace);
  if (outcome.setCookies) ctx.setCookies.push(...outcome.setCookies);
  // Upstream's action-handler-log: which action's handler was called for which request, and how it went (never its headers or bodies).
  writeLog('action-handler-log', outcome.ok ? 'info' : 'error', { action_name: run.action, request_id: ctx.requestId ?? null, ok: outcome.ok, ...(outcome.ok ? {} : { error: outcome.message }) });
  if (!outcome.ok) throw fail(run, outcome.message, outcome.extensions);
  return shaped(run, outcome.output);
}
