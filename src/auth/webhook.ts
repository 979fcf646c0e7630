/**
 * Webhook mode (spec "Authentication" items 4-10): the configured URL is asked who the caller
 * is, by GET with the client's headers or by POST with `{headers, request}`; its 200 answer is
 * the session, 401 refuses the request, anything else is the engine's 500. An answer carrying
 * `Cache-Control: max-age` or `Expires` keys is reused for the same credential until then.
 */
import { createHash } from 'node:crypto';
import { logger, writeLog } from '../log.js';
import { isObject } from '../util/decode.js';
import { ExpiringCache } from './expiring-cache.js';
import { NOT_FORWARDED } from '../outgoing/forwarded-headers.js';
import { webhookExpiry } from './expiry.js';
import { AuthError, internalError } from './failure.js';
import type { HttpClient, IncomingAnswer, OutgoingRequest } from '../outgoing/http-client.js';
import { makeSession, requestedRole, sessionVariables, type Session } from './session.js';
import type { Context } from '../observability/traces/tracer.js';

const log = logger('webhook-log');

/** Webhook mode (spec "Authentication" items 4-10). */
export interface AuthHookConfig {
  url: string;
  mode: 'GET' | 'POST';
  /** How long a webhook call may take before the request fails with 500. */
  timeoutMs: number;
}

/** The POST body's type. A GET has no body, so it carries no `Content-Type` at all (see docs/behaviour.md). */
const JSON_BODY = { 'content-type': 'application/json' };

const CACHE_CAPACITY = 10_000;

/** `trace`: the request's trace context, when traced (the call is a client span in it); `requestId`: for the lines it logs. */
export type WebhookAuthenticate = (headers: Record<string, string>, body: Uint8Array | null, trace?: Context, requestId?: string) => Promise<Session>;

export function webhookAuthenticator(hook: AuthHookConfig, client: HttpClient): WebhookAuthenticate {
  const url = new URL(hook.url);
  const cache = new ExpiringCache<Session>(CACHE_CAPACITY);
  return async (headers, body, trace, requestId) => {
    const call = hookCall(hook.mode, headers, body);
    // The cache key is everything the webhook is shown, so it decides on the same input.
    const key = createHash('sha256').update(call.shown).digest('base64');
    const now = Date.now();
    const hit = cache.get(key, now);
    // A hit does not replay the webhook's Set-Cookie: the client got it with the first answer.
    if (hit) return { ...hit.value, variables: { ...hit.value.variables }, expiresAt: hit.expiresAt };
    let answer: IncomingAnswer;
    try {
      answer = await client.send(url, trace ? { ...call.request, span: { name: 'auth webhook', parent: trace } } : call.request);
    } catch (e) {
      log.warn('auth webhook call failed', { url: hook.url, method: hook.mode, request_id: requestId, error: e instanceof Error ? e.message : String(e) });
      throw internalError('webhook authentication request failed');
    }
    // As upstream's webhook-log: the call and its status (never the headers or the answer: they hold credentials).
    writeLog('webhook-log', answer.status === 200 ? 'info' : 'error', { url: hook.url, method: hook.mode, status_code: answer.status, http_error: null, request_id: requestId });
    const session = sessionFromAnswer(answer, now, hook.url);
    if (session.expiresAt !== undefined && session.expiresAt > now) {
      const { setCookies: _sent, ...reusable } = session;
      cache.set(key, reusable, session.expiresAt);
    }
    return session;
  };
}

function hookCall(mode: AuthHookConfig['mode'], headers: Record<string, string>, body: Uint8Array | null): { request: OutgoingRequest; shown: string } {
  const sorted = Object.entries(headers).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  if (mode === 'GET') {
    // Header names are case-insensitive: `Content-Type` from a direct caller is dropped like `content-type`.
    const forwarded = sorted.filter(([name]) => !NOT_FORWARDED.has(name.toLowerCase()));
    return { request: { method: 'GET', headers: Object.fromEntries(forwarded) }, shown: JSON.stringify(forwarded) };
  }
  // Spec item 7: all client headers, and the client's request unless its body is not JSON.
  const payload = JSON.stringify({ headers: Object.fromEntries(sorted), ...clientRequest(body) });
  return { request: { method: 'POST', headers: JSON_BODY, body: payload }, shown: payload };
}

function clientRequest(body: Uint8Array | null): { request?: unknown } {
  if (body === null) return {};
  try {
    return { request: JSON.parse(Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8')) };
  } catch {
    return {};
  }
}

function sessionFromAnswer(answer: IncomingAnswer, now: number, url: string): Session {
  const setCookies = answer.headers['set-cookie'] ?? [];
  if (answer.status === 401) {
    throw new AuthError(401, 'access-denied', 'Authentication hook unauthorized this request', setCookies.length > 0 ? { 'set-cookie': setCookies } : undefined);
  }
  if (answer.status !== 200) {
    log.warn('auth webhook answered an unexpected status', { url, status: answer.status });
    throw internalError('Invalid response from authorization hook');
  }
  const fields = answerFields(answer.body, url);
  const variables = sessionVariables(fields);
  const role = requestedRole(variables);
  // The webhook must name the role; the client's X-Service-Role is not consulted.
  if (role === undefined) throw new AuthError(400, 'invalid-params', 'x-service-role not found in session variables');
  const expiresAt = webhookExpiry(field(fields, 'cache-control'), field(fields, 'expires'), now);
  const session = makeSession(role, variables, { isAdmin: false, useBackendOnlyPermissions: false });
  if (expiresAt !== undefined) session.expiresAt = expiresAt;
  if (setCookies.length > 0) session.setCookies = setCookies;
  return session;
}

/** Spec item 8: a JSON object whose values are all strings. */
function answerFields(body: Buffer, url: string): Record<string, string> {
  const invalid = (reason: string) => {
    log.warn('auth webhook answered an invalid body', { url, reason });
    return internalError(`Invalid response from authorization hook: ${reason}`);
  };
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    throw invalid('the body is not valid JSON');
  }
  if (!isObject(parsed)) throw invalid('expected a JSON object');
  for (const [name, value] of Object.entries(parsed)) {
    if (typeof value !== 'string') throw invalid(`the value of "${name}" must be a string`);
  }
  return parsed as Record<string, string>;
}

/** `Cache-Control` and `Expires` are keys of the answer's JSON (spec item 10), any case. */
function field(fields: Record<string, string>, lowerName: string): string | undefined {
  for (const [name, value] of Object.entries(fields)) if (name.toLowerCase() === lowerName) return value;
  return undefined;
}
