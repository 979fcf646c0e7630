import { describe, expect, it } from 'vitest';
import {
  decodeRequestTransform,
  parseRequestTransform,
  parseResponseTransform,
  testWebhookTransform,
  type RequestTransform,
  type TestWebhookTransformArgs,
} from '../../src/templates/webhook-transform.js';

const transform = (t: Partial<RequestTransform>): RequestTransform => ({ version: 2, template_engine: 'Kriti', ...t });

function run(t: Partial<RequestTransform>, args: Partial<TestWebhookTransformArgs> = {}) {
  return testWebhookTransform({ webhook_url: 'http://localhost:1234', body: { id: 7, name: 'a b' }, request_transform: transform(t), ...args });
}

const internal = (r: ReturnType<typeof run>) => (r.status === 400 ? r.body.internal : r.body);

describe('testWebhookTransform', () => {
  it('passes the request through unchanged without transforms', () => {
    expect(run({}, { request_headers: [['X-Service-Role', 'admin']] })).toEqual({
      status: 200,
      body: { webhook_url: 'http://localhost:1234/', method: 'GET', headers: [['x-service-role', 'admin']], body: { id: 7, name: 'a b' } },
    });
  });

  it('transforms the method, url and body, with $base_url and the original body', () => {
    const r = run({ method: 'PUT', url: '{{$base_url}}/users/{{$body.id}}', body: { action: 'transform', template: '{"user": {{$body.name}}}' } });
    expect(r.body).toMatchObject({ webhook_url: 'http://localhost:1234/users/7', method: 'PUT', body: { user: 'a b' } });
  });

  it('keeps the original query string when only the url changes, as Hasura does', () => {
    const r = run({ url: 'http://example.com/x?dropped=1' }, { webhook_url: 'http://localhost:1234/?kept=1' });
    expect(r.body).toMatchObject({ webhook_url: 'http://example.com/x?kept=1' });
  });

  it('replaces the query with parameters, dropping those that render "null"', () => {
    const r = run({ query_params: { id: '{{$body.id}}', flag: null, gone: 'null', '{{ null }}': 'x', q: '{{$body.name}}' } });
    const url = r.status === 200 ? r.body.webhook_url : '';
    expect(new URL(url).search.slice(1).split('&').sort()).toEqual(['flag', 'id=7', 'q=a%20b']);
  });

  it('takes a query-string template, and exposes the original query as $query_params', () => {
    const r = run({ query_params: 'copy={{ $query_params[0][1] }}&x=1' }, { webhook_url: 'http://h/?a=b' });
    expect(r.body).toMatchObject({ webhook_url: 'http://h/?copy=b&x=1' });
  });

  it('removes headers case-insensitively and appends rendered ones in Hasura’s order', () => {
    const r = run(
      { request_headers: { remove_headers: ['X-Remove'], add_headers: { foo: 'bar', 'Content-Type': 'id-{{$body.id}}' } } },
      { request_headers: { 'x-remove': '1', Keep: '2' } },
    );
    expect(r.body).toMatchObject({ headers: [['keep', '2'], ['content-type', 'id-7'], ['foo', 'bar']] });
  });

  it('reads session variables through $session_variables and getSessionVariable', () => {
    const r = run(
      { body: { action: 'transform', template: `[{{ $session_variables['x-service-role'] }}, {{ getSessionVariable("X-Service-Role") }}]` } },
      { session_variables: { 'X-Service-Role': 'user' } },
    );
    expect(r.body).toMatchObject({ body: ['user', 'user'] });
  });

  it('encodes a form body in Hasura’s field order, escaping names and values', () => {
    const r = run({ body: { action: 'x_www_form_urlencoded', form_template: { foo: 'a&b', baz: '{{$body.name}}' } } });
    expect(r.body).toMatchObject({ body: 'foo=a%26b&baz=a%20b' });
  });

  it('sends an empty body after remove', () => {
    expect(run({ body: { action: 'remove' } }).body).toMatchObject({ body: '' });
  });

  it('interpolates sample environment variables into the url and header values', () => {
    const r = run({}, { webhook_url: '{{HOST}}/hook', env: { HOST: 'http://example.com' }, request_headers: [['a', '{{TOKEN}}x']] });
    expect(r.status === 400 ? r.body : undefined).toMatchObject({ path: '$.args', code: 'not-found', error: expect.stringContaining('Missing Env Var: TOKEN.') });
    const ok = run({}, { webhook_url: '{{HOST}}/hook', env: { HOST: 'http://example.com', TOKEN: 't' }, request_headers: [['a', '{{TOKEN}}x']] });
    expect(ok.body).toMatchObject({ webhook_url: 'http://example.com/hook', headers: [['a', 'tx']] });
  });

  it('resolves {from_env} against the sample environment only', () => {
    expect(run({}, { webhook_url: { from_env: 'HOOK' }, env: { HOOK: 'http://h' } }).body).toMatchObject({ webhook_url: 'http://h/' });
    expect(run({}, { webhook_url: { from_env: 'HOOK' } })).toEqual({
      status: 400,
      body: { path: '$.args', error: 'Missing Env Var', code: 'not-found' },
    });
  });

  it('fails on a webhook url http-client would not accept', () => {
    expect(run({}, { webhook_url: 'ftp://example.com' })).toEqual({
      status: 400,
      body: {
        path: '$.args',
        error: 'request transform validation failed',
        code: 'validation-failed',
        internal: [{ error_code: 'Request Initialization Error', message: 'InvalidUrlException "ftp://example.com" "Invalid scheme"' }],
      },
    });
  });

  it('fails on a url template that renders an invalid URL', () => {
    expect(internal(run({ url: 'not a url' }))).toEqual([{ error_code: 'TransformationError', message: 'Invalid URL: not a url' }]);
  });

  it('reports every failing template of a field, and stops at the first failing field', () => {
    const r = run({
      body: { action: 'x_www_form_urlencoded', form_template: { foo: '{{ $body.x }}', baz: '{{ $body.y }}' } },
      request_headers: { add_headers: { h: '{{ $nope }}' }, remove_headers: [] },
    });
    expect(internal(r)).toMatchObject([{ message: "'Object' has no attribute 'x'." }, { message: "'Object' has no attribute 'y'." }]);
  });

  it('reports parse errors of every template before running any, positions counting the added quote', () => {
    const r = run({ url: '{{ $base_url', request_headers: { add_headers: { a: '{{ 1 }' }, remove_headers: [] } });
    expect(internal(r)).toEqual([
      { error_code: 'Parse Error', message: `Unexpected token '"'.`, source_position: { start_line: 0, start_column: 14, end_line: 0, end_column: 15 } },
      { error_code: 'Parse Error', message: "Unexpected token '}'.", source_position: { start_line: 0, start_column: 8, end_line: 0, end_column: 9 } },
    ]);
  });
});

describe('parsing transforms', () => {
  it('reads version 1 bodies as templates and defaults the version and engine', () => {
    expect(parseRequestTransform({ body: '{{ $body }}', method: null, content_type: 'application/json' }, '$.args.request_transform')).toEqual({
      version: 1,
      template_engine: 'Kriti',
      body: { action: 'transform', template: '{{ $body }}' },
    });
  });

  it('reads version 2 transforms in full', () => {
    const json = {
      version: 2,
      template_engine: 'Tmpl',
      method: 'POST',
      url: '{{$base_url}}/x',
      body: { action: 'x_www_form_urlencoded', form_template: { a: '1' } },
      query_params: { a: null, b: '2' },
      request_headers: { add_headers: { h: 'v' }, remove_headers: ['r'] },
    };
    expect(parseRequestTransform(json, '$')).toEqual(json);
  });

  it('fails on a malformed shape, naming the path', () => {
    expect(decodeRequestTransform({ version: 3 }, '$.args.request_transform')).toEqual({
      path: '$.args.request_transform.version',
      error: 'expected 1 or 2, encountered 3',
      code: 'parse-failed',
    });
    expect(decodeRequestTransform({ version: 2, body: { action: 'zip' } }, '$.rt')).toMatchObject({ path: '$.rt.body', error: 'invalid transform action' });
    expect(decodeRequestTransform({ query_params: 1 }, '$.rt')).toMatchObject({ path: '$.rt.query_params', error: 'Invalid query parameter' });
    expect(decodeRequestTransform([], '$.rt')).toMatchObject({ error: 'parsing RequestTransform failed, expected Object, but encountered Array' });
  });

  it('fails when a template does not parse, reporting for the whole arguments', () => {
    expect(parseRequestTransform({ body: '$body.hello }}' }, '$.args.request_transform')).toEqual({
      path: '$.args',
      error: 'request transform validation failed',
      code: 'validation-failed',
      internal: [{ error_code: 'Parse Error', message: "Unexpected token '}'.", source_position: { start_line: 0, start_column: 14, end_line: 0, end_column: 15 } }],
    });
    expect(parseResponseTransform({ version: 2, body: { action: 'transform', template: '{{' } }, '$.r')).toMatchObject({
      error: 'response transform validation failed',
    });
  });
});
