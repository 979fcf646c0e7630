/**
 * Request and response transforms as metadata describes them (spec "Templating"; Hasura's
 * `RequestTransform` and `MetadataResponseTransform`), their decoding from JSON, and the
 * check that every template in them parses.
 *
 * Version 1 writes `body` as a template string; version 2 as `{action, ...}`. Unknown keys
 * are ignored, as Hasura does; so is the legacy `content_type`.
 */
import { ApiError, parseFailed, type ApiErrorBody } from '../errors/admin.js';
import { arrayOf, int, keyPath, ObjectReader, oneOf, str, stringMap } from '../util/decode.js';
import type { TemplateError } from './errors.js';
import { hashMapOrder } from './hashmap-order.js';
import { parseTemplate } from './index.js';
import { caseFold } from './text.js';

/** The spec calls the template language `Tmpl`; Hasura's metadata says `Kriti`. */
export type TemplateEngine = 'Kriti' | 'Tmpl';

export type BodyTransform =
  | { action: 'remove' }
  | { action: 'transform'; template: string }
  | { action: 'x_www_form_urlencoded'; form_template: Record<string, string> };

/** New query parameters (a `null` value gives a bare name), or a template for the whole query string. */
export type QueryParamsTransform = Record<string, string | null> | string;

export interface HeadersTransform {
  add_headers: Record<string, string>;
  remove_headers: string[];
}

export interface RequestTransform {
  version: 1 | 2;
  template_engine: TemplateEngine;
  method?: string;
  /** A URL with interpolations, e.g. `{{$base_url}}/users`. */
  url?: string;
  body?: BodyTransform;
  query_params?: QueryParamsTransform;
  request_headers?: HeadersTransform;
}

export interface ResponseTransform {
  version: 1 | 2;
  template_engine: TemplateEngine;
  body?: BodyTransform;
}

export type TransformParseResult<T> = T | ApiErrorBody;

function version(v: unknown, path: string): 1 | 2 {
  const n = int(v, path);
  if (n !== 1 && n !== 2) throw parseFailed(`expected 1 or 2, encountered ${n}`, path);
  return n;
}

function bodyTransform(v: unknown, path: string): BodyTransform {
  const o = ObjectReader.of(v, path, 'BodyTransformFn');
  const action = o.required('action', str);
  if (action === 'remove') return { action };
  if (action === 'transform') return { action, template: o.required('template', str) };
  if (action === 'x_www_form_urlencoded') return { action, form_template: o.required('form_template', stringMap) };
  throw parseFailed('invalid transform action', path);
}

function queryParams(v: unknown, path: string): QueryParamsTransform {
  if (typeof v === 'string') return v;
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw parseFailed('Invalid query parameter', path);
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, x === null ? null : str(x, keyPath(path, k))]));
}

function headersTransform(v: unknown, path: string): HeadersTransform {
  const o = ObjectReader.of(v, path, 'AddReplaceRemoveFields');
  return {
    add_headers: o.withDefault('add_headers', stringMap, {}),
    remove_headers: o.withDefault('remove_headers', arrayOf(str), []),
  };
}

const engine = oneOf(['Kriti', 'Tmpl'] as const, 'template engine');

function common(o: ObjectReader): { version: 1 | 2; template_engine: TemplateEngine; body?: BodyTransform } {
  const v = o.withDefault('version', version, 1);
  const t = { version: v, template_engine: o.withDefault('template_engine', engine, 'Kriti') };
  const body = v === 1 ? o.optional('body', str) : o.optional('body', bodyTransform);
  if (body === undefined) return t;
  return { ...t, body: typeof body === 'string' ? { action: 'transform', template: body } : body };
}

function requestTransform(json: unknown, path: string): RequestTransform {
  const o = ObjectReader.of(json, path, 'RequestTransform');
  const t: RequestTransform = common(o);
  const method = o.optional('method', str);
  const url = o.optional('url', str);
  const query = o.optional('query_params', queryParams);
  const headers = o.optional('request_headers', headersTransform);
  if (method !== undefined) t.method = method;
  if (url !== undefined) t.url = url;
  if (query !== undefined) t.query_params = query;
  if (headers !== undefined) t.request_headers = headers;
  return t;
}

const responseTransform = (json: unknown, path: string): ResponseTransform =>
  common(ObjectReader.of(json, path, 'MetadataResponseTransform'));

function decoded<T>(decode: (json: unknown, path: string) => T, json: unknown, path: string): TransformParseResult<T> {
  try {
    return decode(json, path);
  } catch (e) {
    if (e instanceof ApiError) return e.body();
    throw e;
  }
}

/** Checks the shape of the JSON at `path`, not the templates in it. */
export const decodeRequestTransform = (json: unknown, path: string) => decoded(requestTransform, json, path);
export const decodeResponseTransform = (json: unknown, path: string) => decoded(responseTransform, json, path);

/**
 * Checks the shape of the JSON at `path`, then that its templates parse. Hasura reports
 * template errors for the whole argument object, hence `validationPath`.
 */
export function parseRequestTransform(
  json: unknown,
  path: string,
  validationPath = '$.args',
): TransformParseResult<RequestTransform> {
  const t = decodeRequestTransform(json, path);
  if ('code' in t) return t;
  const errors = validateRequestTransform(t);
  return errors.length === 0 ? t : transformValidationFailed('request', validationPath, errors);
}

export function parseResponseTransform(
  json: unknown,
  path: string,
  validationPath = '$.args',
): TransformParseResult<ResponseTransform> {
  const t = decodeResponseTransform(json, path);
  if ('code' in t) return t;
  const errors = validateResponseTransform(t);
  return errors.length === 0 ? t : transformValidationFailed('response', validationPath, errors);
}

export function transformValidationFailed(what: string, path: string, internal: unknown[]): ApiErrorBody {
  return { path, error: `${what} transform validation failed`, code: 'validation-failed', internal };
}

const parseErrors = (template: string) => {
  const r = parseTemplate(template);
  return r.ok ? [] : r.errors;
};
/** Text with interpolations is parsed as a quoted template, so positions count the added quote. */
const textParseErrors = (text: string) => parseErrors(`"${text}"`);

function bodyErrors(body: BodyTransform | undefined): TemplateError[] {
  if (body?.action === 'transform') return parseErrors(body.template);
  if (body?.action === 'x_www_form_urlencoded') {
    return hashMapOrder(Object.keys(body.form_template)).flatMap((k) => textParseErrors(body.form_template[k]!));
  }
  return [];
}

/** Every template that fails to parse, in Hasura's order: url, body, query parameters, headers. */
export function validateRequestTransform(t: RequestTransform): TemplateError[] {
  const errors = [...(t.url === undefined ? [] : textParseErrors(t.url)), ...bodyErrors(t.body)];
  const q = t.query_params;
  if (typeof q === 'string') errors.push(...textParseErrors(q));
  else if (q !== undefined) {
    for (const k of hashMapOrder(Object.keys(q))) {
      const v = q[k];
      errors.push(...textParseErrors(k), ...(v === null || v === undefined ? [] : textParseErrors(v)));
    }
  }
  for (const [, template] of addedHeaders(t.request_headers)) errors.push(...textParseErrors(template));
  return errors;
}

/**
 * The headers to add, as `[case-folded name, template]` in Hasura's order. Hasura keys
 * them case-insensitively, so of names that differ only in case the later one wins.
 */
export function addedHeaders(h: HeadersTransform | undefined): [string, string][] {
  const byName = new Map<string, string>();
  const add = h?.add_headers ?? {};
  for (const k of hashMapOrder(Object.keys(add))) byName.set(caseFold(k), add[k]!);
  return hashMapOrder([...byName.keys()]).map((name) => [name, byName.get(name)!]);
}

export function validateResponseTransform(t: ResponseTransform): TemplateError[] {
  return bodyErrors(t.body);
}
