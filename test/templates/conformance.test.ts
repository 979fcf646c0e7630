/**
 * Every `test_webhook_transform` case of the harvested conformance corpus, run through
 * `testWebhookTransform` the way the metadata handler would call it: transforms decoded
 * (shape only), the rest of the arguments passed through, and the result compared with the
 * expected status and body after the runner's Hasura-to-service renaming.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  decodeRequestTransform,
  decodeResponseTransform,
  testWebhookTransform,
  type RequestTransform,
  type ResponseTransform,
} from '../../src/templates/webhook-transform.js';

const DIR = '/work/shared/conformance/data/metadata';

interface Step {
  description: string;
  status: number;
  response: unknown;
  query: { type: string; args: Record<string, unknown> };
}

// The runner's default renaming (conformance/run.mjs: caseLike, xlateString, xlate).
function caseLike(sample: string, word: string): string {
  if (sample === sample.toUpperCase()) return word.toUpperCase();
  if (sample[0] === sample[0]!.toUpperCase()) return word[0]!.toUpperCase() + word.slice(1);
  return word;
}

function rename(v: unknown): unknown {
  if (typeof v === 'string') {
    return v
      .replace(/x-hasura-/gi, (m) => `${m[0]}-${caseLike(m.slice(2, 8), 'service')}-`)
      .replace(/hasura_fields/g, 'service_fields')
      .replace(/HASURA_GRAPHQL_/g, 'SERVICE_GRAPHQL_');
  }
  if (Array.isArray(v)) return v.map(rename);
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [rename(k), rename(x)]));
  return v;
}

function run(args: Record<string, unknown>) {
  const request = decodeRequestTransform(args.request_transform, '$.args.request_transform');
  const response = args.response_transform === undefined ? undefined : decodeResponseTransform(args.response_transform, '$.args.response_transform');
  if ('code' in request || (response !== undefined && 'code' in response)) throw new Error('undecodable transform');
  return testWebhookTransform({
    webhook_url: args.webhook_url as string | { from_env: string },
    ...(args.env === undefined ? {} : { env: args.env as Record<string, string> }),
    ...(args.request_headers === undefined ? {} : { request_headers: args.request_headers as [string, string][] }),
    body: args.body,
    ...(args.session_variables === undefined ? {} : { session_variables: args.session_variables as Record<string, string> }),
    request_transform: request as RequestTransform,
    ...(response === undefined ? {} : { response_transform: response as ResponseTransform }),
  });
}

const files = readdirSync(DIR).filter((f) => f.startsWith('test_webhook_transform_') && f.endsWith('.json'));

describe('test_webhook_transform conformance cases', () => {
  it('finds the corpus files', () => {
    expect(files.length).toBe(8);
  });

  for (const file of files) {
    const steps = rename(JSON.parse(readFileSync(join(DIR, file), 'utf8'))) as Step[];
    for (const step of steps) {
      it(`${file}: ${step.description}`, () => {
        expect(step.query.type).toBe('test_webhook_transform');
        const result = run(step.query.args);
        expect(result.status).toBe(step.status);
        expect(result.body).toEqual(step.response);
      });
    }
  }
});
