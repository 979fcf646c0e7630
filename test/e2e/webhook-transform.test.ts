import { describe, expect, it } from 'vitest';
import { useEngine } from '../support/fixture.js';

const fx = useEngine({ REAL_WEBHOOK: 'http://real.example' });

const test = (args: Record<string, unknown>) => fx.engine.metadata({ type: 'test_webhook_transform', args });

describe('test_webhook_transform', () => {
  it('shows the transformed request', async () => {
    const r = await test({
      webhook_url: 'http://example.com/hook',
      body: { name: 'ann' },
      request_headers: [['X-Trace', '1']],
      request_transform: {
        version: 2,
        template_engine: 'Kriti',
        method: 'PUT',
        body: { action: 'transform', template: '{"greeting": "hello {{ $body.name }}"}' },
        query_params: { a: 'b' },
      },
    });
    expect(r).toEqual({
      status: 200,
      body: { webhook_url: 'http://example.com/hook?a=b', method: 'PUT', headers: [['x-trace', '1']], body: { greeting: 'hello ann' } },
    });
  });

  it('reads {from_env} from the sample env of the request, never the server environment', async () => {
    const transform = { version: 2, template_engine: 'Kriti', body: { action: 'remove' } };
    const sample = await test({ webhook_url: { from_env: 'HOOK' }, env: { HOOK: 'http://sample.example' }, body: null, request_transform: transform });
    expect(sample.body.webhook_url).toBe('http://sample.example/');
    const real = await test({ webhook_url: { from_env: 'REAL_WEBHOOK' }, body: null, request_transform: transform });
    expect(real).toEqual({ status: 400, body: { path: '$.args', error: 'Missing Env Var', code: 'not-found' } });
  });

  it('reports a template that does not parse', async () => {
    const r = await test({ webhook_url: 'http://x', body: {}, request_transform: { version: 2, body: { action: 'transform', template: '{{ $body.x' } } });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ path: '$.args', error: 'request transform validation failed', code: 'validation-failed' });
    expect(r.body.internal[0].error_code).toBe('Parse Error');
  });

  it('validates its arguments', async () => {
    expect((await test({ body: {} })).body).toEqual({ path: '$.args', error: 'key "webhook_url" not found', code: 'parse-failed' });
    expect((await test({ webhook_url: 'http://x', request_headers: [['only-name']] })).body.path).toBe('$.args.request_headers[0]');
  });
});
