/**
 * The pure core of the `test_webhook_transform` metadata operation (Hasura's
 * `runTestWebhookTransform`): build the request the webhook would receive, transform it,
 * and describe the result, or the 400 error Hasura answers with.
 */
import type { ApiErrorBody } from '../errors/admin.js';
import { applyRequestTransform, decodeJson } from './apply-transform.js';
import { makeRequest, requestUrl } from './http-request.js';
import { encodeJson, type JsonValue } from './json.js';
import {
  transformValidationFailed,
  validateRequestTransform,
  validateResponseTransform,
  type RequestTransform,
  type ResponseTransform,
} from './request-transform.js';
import { caseFold } from './text.js';

export {
  decodeRequestTransform,
  decodeResponseTransform,
  parseRequestTransform,
  parseResponseTransform,
} from './request-transform.js';
export type {
  BodyTransform,
  HeadersTransform,
  QueryParamsTransform,
  RequestTransform,
  ResponseTransform,
} from './request-transform.js';

export interface TestWebhookTransformArgs {
  /**
   * A URL, in which `{{NAME}}` refers to `env`, or `{from_env: NAME}`. Hasura resolves both
   * against the sample `env` only: real environment values are not revealed here.
   */
  webhook_url: string | { from_env: string };
  /** Sample environment variables for `{{NAME}}` in the URL and header values. */
  env?: Record<string, string>;
  request_headers?: [string, string][] | Record<string, string>;
  body?: unknown;
  session_variables?: Record<string, string>;
  request_transform: RequestTransform;
  response_transform?: ResponseTransform;
}

export interface TransformedRequest {
  webhook_url: string;
  method: string;
  headers: [string, string][];
  body: JsonValue;
}

export type TestWebhookTransformResult = { status: 200; body: TransformedRequest } | { status: 400; body: ApiErrorBody };

const PATH = '$.args';

export function testWebhookTransform(args: TestWebhookTransformArgs): TestWebhookTransformResult {
  // Hasura validates the response transform first.
  const responseErrors = args.response_transform ? validateResponseTransform(args.response_transform) : [];
  if (responseErrors.length > 0) return failed(transformValidationFailed('response', PATH, responseErrors));
  const requestErrors = validateRequestTransform(args.request_transform);
  if (requestErrors.length > 0) return failed(transformValidationFailed('request', PATH, requestErrors));

  const env = args.env ?? {};
  const { webhook_url } = args;
  const url = typeof webhook_url === 'string' ? interpolateEnv(webhook_url, env) : fromEnv(webhook_url.from_env, env);
  if (typeof url !== 'string') return failed(url);
  const headers: [string, string][] = [];
  for (const [name, value] of pairs(args.request_headers)) {
    const v = interpolateEnv(value, env);
    if (typeof v !== 'string') return failed(v);
    headers.push([name, v]);
  }

  const made = makeRequest(url);
  if (!made.ok) return requestFailed([{ error_code: 'Request Initialization Error', message: made.message }]);
  const request = { ...made.request, headers, body: encodeJson((args.body ?? null) as JsonValue) };
  const result = applyRequestTransform(args.request_transform, request, { baseUrl: url, sessionVariables: args.session_variables });
  if (!result.ok) return requestFailed(result.errors);
  const r = result.request;
  return {
    status: 200,
    body: {
      webhook_url: requestUrl(r),
      method: r.method,
      headers: r.headers.map(([name, value]) => [caseFold(name), value]),
      body: describeBody(r.body),
    },
  };
}

const failed = (body: ApiErrorBody): TestWebhookTransformResult => ({ status: 400, body });

const requestFailed = (errors: unknown[]) => failed(transformValidationFailed('request', PATH, errors));

function pairs(headers: TestWebhookTransformArgs['request_headers']): [string, string][] {
  if (headers === undefined) return [];
  return Array.isArray(headers) ? headers : Object.entries(headers);
}

/** The body as JSON; a form body is not JSON, so it is shown as a string. */
function describeBody(text: string): JsonValue {
  return decodeJson(text) ?? decodeJson(`"${text}"`) ?? null;
}

function fromEnv(name: string, env: Record<string, string>): string | ApiErrorBody {
  return Object.hasOwn(env, name) ? env[name]! : { path: PATH, error: 'Missing Env Var', code: 'not-found' };
}

/**
 * Hasura's `interpolateFromEnv`: `{{NAME}}` is replaced by the sample variable; any other
 * `{` is literal text. An empty text does not parse.
 */
function interpolateEnv(text: string, env: Record<string, string>): string | ApiErrorBody {
  if (text === '') return { path: PATH, error: 'Invalid Url Template', code: 'parse-failed' };
  const names: string[] = [];
  const pieces = text.split(/(\{\{[^}]+\}\})/).map((piece, i) => {
    if (i % 2 === 0) return piece;
    names.push(piece.slice(2, -2));
    return undefined;
  });
  const missing = names.find((n) => !Object.hasOwn(env, n));
  if (missing !== undefined) {
    const error =
      `Missing Env Var: ${missing}. For security reasons when testing request options real environment variable ` +
      `values are not available. Please enter a mock value for ${missing} in the Sample Env Variables list.`;
    return { path: PATH, error, code: 'not-found' };
  }
  let name = 0;
  return pieces.map((p) => p ?? env[names[name++]!]!).join('');
}
