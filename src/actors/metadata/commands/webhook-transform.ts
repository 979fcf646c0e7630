/**
 * test_webhook_transform: shows the request a webhook would receive after a request
 * transform, with sample data (spec "Metadata management"). `{from_env}` in
 * `webhook_url` reads the request's sample `env`, never the server's environment.
 */
import { ApiError, parseFailed, type ApiErrorBody } from '../../../errors/admin.js';
import { decodeRequestTransform, decodeResponseTransform, testWebhookTransform } from '../../../templates/webhook-transform.js';
import { arrayOf, ObjectReader, str, stringMap, type Json } from '../../../util/decode.js';
import type { Command } from './context.js';

/** `[name, value]` pairs. */
const headerPairs = arrayOf((v, path): [string, string] => {
  if (!Array.isArray(v) || v.length !== 2) throw parseFailed('expected a [name, value] pair', path);
  return [str(v[0], `${path}[0]`), str(v[1], `${path}[1]`)];
});

const fail = (body: ApiErrorBody) => new ApiError(400, body.code, body.error, body.path, body.internal);

/** A transform decoder's result, or its error thrown. */
function decoded<T extends object>(result: T | ApiErrorBody): T {
  if ('code' in result && 'error' in result) throw fail(result as ApiErrorBody);
  return result as T;
}

export const testWebhookTransformCommand: Command = (_ctx, args, path) => {
  const r = ObjectReader.of(args, path);
  const env = r.withDefault('env', stringMap, {});
  const webhookUrl = r.required('webhook_url', (v, p) => {
    if (typeof v === 'string') return v;
    const name = ObjectReader.of(v, p).required('from_env', str);
    const value = env[name];
    if (value === undefined) throw new ApiError(400, 'not-found', 'Missing Env Var', path);
    return value;
  });
  const requestHeaders = r.withDefault('request_headers', headerPairs, []);
  const body = r.optional('body', (v) => v as Json) ?? null;
  const sessionVariables = r.optional('session_variables', stringMap);
  // The spec makes the transform optional: without one, the request is shown as it is.
  const requestTransform = decoded(decodeRequestTransform(r.value.request_transform ?? {}, r.at('request_transform')));
  r.ignore('request_transform');
  const responseTransform = r.has('response_transform') ? decoded(decodeResponseTransform(r.value.response_transform, r.at('response_transform'))) : undefined;
  r.ignore('response_transform');
  r.done();

  const result = testWebhookTransform({
    webhook_url: webhookUrl,
    env,
    request_headers: requestHeaders,
    body,
    ...(sessionVariables ? { session_variables: sessionVariables } : {}),
    request_transform: requestTransform,
    ...(responseTransform ? { response_transform: responseTransform } : {}),
  });
  if (result.status === 400) throw fail(result.body);
  return { metadata: null, response: result.body as unknown as Json };
};
