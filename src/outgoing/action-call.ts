/**
 * One call of an action's handler (spec "Action"; the well-known engine's behaviour): a POST
 * of `{action: {name}, input, session_variables, request_query}` with the configured headers
 * (values or environment variables) and, with `forward_client_headers`, the client's; the
 * request and response transforms; the action's `timeout`. A 2xx answer's JSON is the output; a
 * 4xx answer `{message, extensions}` is the client's error as the handler wrote it; anything
 * else (no answer in time, another status, a body that is not JSON) an error saying so, code
 * `unexpected`. Used by the front thread (synchronous actions) and the trigger-delivery actor
 * (asynchronous ones); never throws.
 */
import type { ActionHandler } from '../metadata/actions.js';
import { fillUrlTemplate } from '../metadata/url-template.js';
import { decodeJson } from '../templates/apply-transform.js';
import { decodeRequestTransform, decodeResponseTransform } from '../templates/request-transform.js';
import { NOT_FORWARDED } from './forwarded-headers.js';
import type { HttpClient, IncomingAnswer } from './http-client.js';
import { buildCall, transformResponseBody } from './transformed-call.js';
import type { Context } from '../observability/traces/tracer.js';

export interface ActionPayload {
  action: { name: string };
  input: unknown;
  session_variables: Record<string, string>;
  request_query: string;
}

export type HandlerOutcome = ({ ok: true; output: unknown } | { ok: false; message: string; extensions: Record<string, unknown> }) & {
  /** The handler's `Set-Cookie` values, whatever its status: the client gets them over HTTP (docs/behaviour.md "Actions"). */
  setCookies?: string[];
};

const failed = (message: string, internal?: unknown): HandlerOutcome => ({ ok: false, message, extensions: { path: '$', code: 'unexpected', ...(internal === undefined ? {} : { internal }) } });

/** The client's headers a handler gets with `forward_client_headers` (not the engine's own `x-service-*`). */
export function forwardedClientHeaders(handler: ActionHandler, clientHeaders: Record<string, string>): Record<string, string> {
  if (!handler.forwardClientHeaders) return {};
  return Object.fromEntries(Object.entries(clientHeaders).filter(([k]) => !NOT_FORWARDED.has(k) && !k.startsWith('x-service-') && k !== 'transfer-encoding' && k !== 'upgrade'));
}

function configuredHeaders(handler: ActionHandler, env: NodeJS.ProcessEnv): [string, string][] {
  return handler.headers.map((h) => [h.name.toLowerCase(), h.value ?? env[h.value_from_env!] ?? '']);
}

/**
 * `forwarded`: the client's headers to send (already filtered: `forwardedClientHeaders`); the configured ones win.
 * `trace`: the context the call's client span runs in (its request's; none: a root span, an asynchronous call's).
 */
export async function callActionHandler(client: HttpClient, handler: ActionHandler, payload: ActionPayload, forwarded: Record<string, string>, env: NodeJS.ProcessEnv, trace?: Context): Promise<HandlerOutcome> {
  const name = JSON.stringify(payload.action.name);
  let url: URL;
  try {
    url = new URL(fillUrlTemplate(handler.url, env));
  } catch (e) {
    return failed(`the handler of action ${name} cannot be called: ${(e as Error).message}`);
  }
  const configured = configuredHeaders(handler, env);
  const own = new Set(configured.map(([k]) => k));
  const headers: [string, string][] = [...Object.entries(forwarded).filter(([k]) => !own.has(k)), ...configured];
  const requestTransform = handler.requestTransform ? decodeRequestTransform(handler.requestTransform, '$') : undefined;
  if (requestTransform && 'code' in requestTransform) return failed(`the request transform of action ${name} is invalid: ${requestTransform.error}`);
  const built = buildCall(url.href, headers, requestTransform, payload as unknown as Record<string, unknown>, payload.session_variables);
  if (!built.ok) return failed(`the request transform of action ${name} failed: ${built.message}`, built.errors);
  const { call } = built;
  let answer: IncomingAnswer;
  try {
    answer = await client.send(new URL(call.url), { method: call.method, headers: Object.fromEntries(call.headers), body: call.body, span: { name: `action ${payload.action.name}`, parent: trace } }, handler.timeoutSeconds * 1000);
  } catch (e) {
    const message = (e as Error).message;
    if (message.startsWith('no answer within')) return failed(`the handler of action ${name} did not answer within ${handler.timeoutSeconds} s`);
    return failed(`http exception when calling the handler of action ${name}: ${message}`);
  }
  const setCookies = answer.headers['set-cookie'] ?? [];
  const outcome = answerOutcome(handler, name, url, answer.status, answer.body.toString('utf8'), payload.session_variables);
  return setCookies.length > 0 ? { ...outcome, setCookies } : outcome;
}

/** What the handler's answer (its status and body text) makes of the call. */
function answerOutcome(handler: ActionHandler, name: string, url: URL, status: number, text: string, session: Record<string, string>): HandlerOutcome {
  const responseTransform = handler.responseTransform ? decodeResponseTransform(handler.responseTransform, '$') : undefined;
  if (responseTransform && !('code' in responseTransform) && status >= 200 && status < 300) {
    const t = transformResponseBody(responseTransform, text, url.href, session);
    if (!t.ok) return failed(`the response transform of action ${name} failed`, t.errors);
    text = t.body;
  }
  const body = decodeJson(text);
  if (status >= 200 && status < 300) {
    if (body === undefined) return failed(`the handler of action ${name} did not answer with JSON`, { status, body: text.slice(0, 1024) });
    return { ok: true, output: body };
  }
  if (status >= 400 && status < 500 && body !== null && typeof body === 'object' && !Array.isArray(body) && typeof body.message === 'string') {
    const ext = body.extensions;
    const extensions = ext !== null && typeof ext === 'object' && !Array.isArray(ext) ? (ext as Record<string, unknown>) : { path: '$', code: typeof body.code === 'string' ? body.code : 'unexpected' };
    return { ok: false, message: body.message, extensions };
  }
  return failed(`the handler of action ${name} answered with status ${status}`, { status, body: body ?? text.slice(0, 1024) });
}
