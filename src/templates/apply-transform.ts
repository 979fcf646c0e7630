/**
 * Applying a request transform to a webhook request, as Hasura's `applyRequestTransform`:
 * every template sees the request as it was before any change (`$body`, `$query_params`,
 * `$base_url`, `$session_variables`); fields change in the order method, url, body, query
 * parameters, headers, and the first field that fails stops the rest, while within a field
 * all templates run and all their errors are reported.
 */
import type { TemplateError } from './errors.js';
import { hashMapOrder } from './hashmap-order.js';
import { setRequestUrl, type HttpRequest } from './http-request.js';
import { renderTemplate } from './index.js';
import { encodeJson, showScientific, type JsonValue } from './json.js';
import { addedHeaders, type BodyTransform, type QueryParamsTransform, type RequestTransform } from './request-transform.js';
import { caseFold } from './text.js';
import { escapeUnreserved, parseAbsoluteUri, parseQuery, type Query } from './uri.js';

/** Hasura's own failures next to template errors. */
export type TransformError =
  | TemplateError
  | { error_code: 'TransformationError'; message: string; value?: JsonValue };

export interface TransformContext {
  /** The webhook URL as configured; `$base_url`. */
  baseUrl: string;
  sessionVariables?: Record<string, string>;
}

export type ApplyResult = { ok: true; request: HttpRequest } | { ok: false; errors: TransformError[] };

export function decodeJson(text: string): JsonValue | undefined {
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return undefined;
  }
}

export function applyRequestTransform(t: RequestTransform, request: HttpRequest, ctx: TransformContext): ApplyResult {
  const sv = ctx.sessionVariables;
  const run = new Renderer({
    $body: decodeJson(request.body) ?? null,
    // Hasura's session variables serialise with lower-cased names.
    $session_variables: sv ? Object.fromEntries(Object.entries(sv).map(([k, v]) => [k.toLowerCase(), v])) : null,
    $query_params: request.query,
    $base_url: ctx.baseUrl,
  });
  let out: HttpRequest = { ...request, method: t.method ?? request.method };
  if (t.url !== undefined) {
    const url = run.url(t.url);
    if (url === undefined) return run.failure();
    out = setRequestUrl(out, url);
  }
  const body = run.body(t.body, request.body);
  if (body === undefined) return run.failure();
  // The url setter's query is always replaced: by the transformed one, or the original.
  const query = t.query_params === undefined ? request.query : run.query(t.query_params);
  if (query === undefined) return run.failure();
  const headers = t.request_headers === undefined ? request.headers : run.headers(t, request.headers);
  if (headers === undefined) return run.failure();
  return { ok: true, request: { ...out, body, query, headers } };
}

/** Renders templates, collecting errors; a method returns `undefined` when any failed. */
class Renderer {
  private readonly errors: TransformError[] = [];

  constructor(private readonly env: Record<string, unknown>) {}

  failure(): ApplyResult {
    return { ok: false, errors: this.errors };
  }

  private value(template: string): JsonValue | undefined {
    const r = renderTemplate(template, this.env);
    if (r.ok) return r.value;
    this.errors.push(...r.errors);
    return undefined;
  }

  private fail(message: string, value?: JsonValue): undefined {
    this.errors.push({ error_code: 'TransformationError', message, ...(value === undefined ? {} : { value }) });
    return undefined;
  }

  /** Text with interpolations: quoted, rendered, and the scalar result written out. */
  private text(template: string): string | undefined {
    const v = this.value(`"${template}"`);
    if (v === undefined || typeof v === 'string') return v;
    if (typeof v === 'number') return showScientific(v);
    if (typeof v === 'boolean') return String(v);
    return this.fail('Template must produce a String, Number, or Boolean value', v);
  }

  /** Runs `f` over every item, then gives `undefined` if any of them failed. */
  private all<T, R>(items: T[], f: (item: T) => R | undefined): R[] | undefined {
    const before = this.errors.length;
    const results = items.map(f);
    return this.errors.length > before ? undefined : (results as R[]);
  }

  url(template: string): string | undefined {
    const v = this.value(`"${template}"`);
    if (v === undefined) return undefined;
    if (typeof v !== 'string') return this.fail(`URL Transforms must produce a JSON String: ${encodeJson(v)}`);
    return parseAbsoluteUri(v) ? v : this.fail(`Invalid URL: ${v}`);
  }

  /** The new body text; an untransformed body is re-encoded, and is dropped unless it is JSON. */
  body(t: BodyTransform | undefined, original: string): string | undefined {
    if (t === undefined) {
      const v = decodeJson(original);
      return v === undefined ? '' : encodeJson(v);
    }
    if (t.action === 'remove') return '';
    if (t.action === 'transform') {
      const v = this.value(t.template);
      return v === undefined ? undefined : encodeJson(v);
    }
    const form = t.form_template;
    const pairs = this.all(hashMapOrder(Object.keys(form)), (k) => {
      const v = this.text(form[k]!);
      return v === undefined ? undefined : `${escapeUnreserved(k)}=${escapeUnreserved(v)}`;
    });
    return pairs?.join('&');
  }

  /** The parameters replace the whole query; a name or value rendering "null" drops its pair. */
  query(t: QueryParamsTransform): Query | undefined {
    if (typeof t === 'string') {
      const q = this.text(t);
      return q === undefined ? undefined : parseQuery(q);
    }
    const pairs = this.all(hashMapOrder(Object.keys(t)), (k): [string, string | null] | undefined => {
      const template = t[k] ?? null;
      const name = this.text(k);
      const value = template === null ? null : this.text(template);
      return name === undefined || value === undefined ? undefined : [name, value];
    });
    return pairs?.filter(([k, v]) => k !== 'null' && v !== 'null');
  }

  headers(t: RequestTransform, original: [string, string][]): [string, string][] | undefined {
    const removed = new Set((t.request_headers?.remove_headers ?? []).map(caseFold));
    const kept = original.filter(([name]) => !removed.has(caseFold(name)));
    const added = this.all(addedHeaders(t.request_headers), ([name, template]): [string, string] | undefined => {
      const v = this.text(template);
      return v === undefined ? undefined : [name, v];
    });
    return added && [...kept, ...added];
  }
}
