/**
 * A webhook call as configured, then as its request transform makes it, and an answer's body
 * through a response transform (spec "Templating"): shared by event and scheduled deliveries
 * and action handlers.
 */
import { applyRequestTransform, decodeJson, type TransformError } from '../templates/apply-transform.js';
import { makeRequest, requestUrl } from '../templates/http-request.js';
import type { RequestTransform, ResponseTransform } from '../templates/request-transform.js';

export interface Call {
  url: string;
  method: string;
  headers: [string, string][];
  body: string;
  /** The body sent, as an invocation records it: the payload itself when no transform made another (not parsed again). */
  recorded: unknown;
}

/** A JSON POST of `payload` to `url`, transformed when `transform` is given; or the transform's errors. */
export function buildCall(
  url: string,
  configuredHeaders: [string, string][],
  transform: RequestTransform | undefined,
  payload: Record<string, unknown>,
  session: Record<string, string> | undefined,
): { ok: true; call: Call } | { ok: false; message: string; errors?: unknown } {
  const body = JSON.stringify(payload);
  const headers: [string, string][] = [['content-type', 'application/json'], ...configuredHeaders];
  if (!transform) return { ok: true, call: { url, method: 'POST', headers, body, recorded: payload } };
  const made = makeRequest(url);
  if (!made.ok) return { ok: false, message: made.message };
  const result = applyRequestTransform(transform, { ...made.request, method: 'POST', headers, body }, { baseUrl: url, ...(session ? { sessionVariables: session } : {}) });
  if (!result.ok) return { ok: false, message: 'request transform failed', errors: result.errors };
  const r = result.request;
  return { ok: true, call: { url: requestUrl(r), method: r.method, headers: r.headers, body: r.body, recorded: decodeJson(r.body) ?? r.body } };
}

/** An answer's body text through the response transform's body template (`$body` is the answer). */
export function transformResponseBody(t: ResponseTransform, text: string, url: string, session?: Record<string, string>): { ok: true; body: string } | { ok: false; errors: TransformError[] } {
  const made = makeRequest(url);
  if (!made.ok) return { ok: true, body: text };
  const result = applyRequestTransform({ version: t.version, template_engine: t.template_engine, ...(t.body ? { body: t.body } : {}) }, { ...made.request, body: text }, { baseUrl: url, ...(session ? { sessionVariables: session } : {}) });
  return result.ok ? { ok: true, body: result.request.body } : { ok: false, errors: result.errors };
}
