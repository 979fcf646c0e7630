/** Webhook mode against a real webhook server (spec "Authentication" items 4-10). */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isAuthFailure, type AuthFailure } from '../../src/auth/failure.js';
import { createAuthenticator, type Authenticator } from '../../src/auth/resolve.js';
import type { Session } from '../../src/auth/session.js';
import { json, startServer, type Answer, type TestServer } from './http-server.js';

const SECRET = 's3cret';
const USER = { 'X-Service-Role': 'user', 'X-Service-User-Id': '42' };

let server: TestServer;
let get: Authenticator;
let post: Authenticator;

beforeAll(async () => {
  server = await startServer(() => json(200, USER));
  const hook = (mode: 'GET' | 'POST') =>
    createAuthenticator({ adminSecrets: [SECRET], authHook: { url: server.url, mode, timeoutMs: 300 }, jwtSecret: undefined, unauthorizedRole: undefined });
  get = await hook('GET');
  post = await hook('POST');
});

afterAll(async () => {
  get.close();
  post.close();
  await server.close();
});

beforeEach(() => {
  server.calls.length = 0;
  server.answer = () => json(200, USER);
});

const answering = (a: Answer) => {
  server.answer = () => a;
};

async function session(auth: Authenticator, headers: Record<string, string>, body: string | null = null): Promise<Session> {
  const r = await auth.authenticate({ headers, body: body === null ? null : new TextEncoder().encode(body) });
  if (isAuthFailure(r)) throw new Error(`refused: ${JSON.stringify(r)}`);
  return r;
}

async function failure(auth: Authenticator, headers: Record<string, string>): Promise<AuthFailure> {
  const r = await auth.authenticate({ headers, body: null });
  if (!isAuthFailure(r)) throw new Error(`accepted: ${JSON.stringify(r)}`);
  return r;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('GET mode', () => {
  // Spec item 6, one value per header so each can be traced; names in their usual case, since
  // header names are case-insensitive.
  const notForwarded = {
    'Content-Length': '0',
    'Content-Type': 'application/json',
    'Content-MD5': 'Q2hlY2sgSW50ZWdyaXR5IQ==',
    'User-Agent': 'client-agent/1.0',
    Host: 'client.example',
    Origin: 'https://client.example',
    Referer: 'https://client.example/page',
    Accept: 'text/html',
    'Accept-Encoding': 'br',
    'Accept-Language': 'fr',
    'Accept-Datetime': 'Thu, 31 May 2007 20:35:00 GMT',
    'Cache-Control': 'no-cache',
    Connection: 'close',
    DNT: '1',
  };
  const forwarded = {
    authorization: 'Bearer abc',
    Cookie: 'session=xyz',
    'x-service-role': 'admin',
    'X-Service-User-Id': '7',
    'x-custom': 'custom value',
    'X-Request-Id': 'r-1',
  };

  it('forwards exactly the client headers not listed in spec item 6, and names itself', async () => {
    await session(get, { ...notForwarded, ...forwarded });
    const [call] = server.calls;
    expect(call?.method).toBe('GET');
    // The engine's own connection headers, then the forwarded ones; nothing else.
    const own = { 'user-agent': 'service-graphql-engine', host: new URL(server.url).host, connection: 'keep-alive' };
    const expected = Object.fromEntries(Object.entries(forwarded).map(([name, value]) => [name.toLowerCase(), value]));
    expect(call?.headers).toEqual({ ...own, ...expected });
  });

  it('runs as the role the webhook names, with its x-service-* keys as variables (any case)', async () => {
    answering(json(200, { 'X-SERVICE-ROLE': 'editor', 'X-Service-User-Id': '42', 'x-service-org': 'o1', 'Other-Key': 'ignored' }));
    const s = await session(get, { 'x-service-role': 'admin', 'x-service-user-id': '1' });
    expect(s).toEqual({
      role: 'editor',
      variables: { 'x-service-role': 'editor', 'x-service-user-id': '42', 'x-service-org': 'o1' },
      isAdmin: false,
      useBackendOnlyPermissions: false,
    });
  });

  it('answers 401 access-denied when the webhook answers 401, forwarding its Set-Cookie', async () => {
    answering({ status: 401, headers: { 'set-cookie': ['session=; Max-Age=0'] } });
    expect(await failure(get, { authorization: 'Bearer expired' })).toEqual({
      status: 401,
      code: 'access-denied',
      message: 'Authentication hook unauthorized this request',
      headers: { 'set-cookie': ['session=; Max-Age=0'] },
    });
    answering({ status: 401 });
    expect(await failure(get, {})).toEqual({ status: 401, code: 'access-denied', message: 'Authentication hook unauthorized this request' });
  });

  it.each([302, 400, 403, 404, 500, 503])('answers 500 when the webhook answers %i', async (status) => {
    answering(json(status, USER));
    expect(await failure(get, {})).toEqual({ status: 500, code: 'unexpected', message: 'Invalid response from authorization hook' });
  });

  it.each([
    ['not JSON', 'not json', 'the body is not valid JSON'],
    ['an array', '[]', 'expected a JSON object'],
    ['a number value', JSON.stringify({ 'X-Service-Role': 'user', 'X-Service-User-Id': 42 }), 'the value of "X-Service-User-Id" must be a string'],
    ['a null value', JSON.stringify({ 'X-Service-Role': 'user', 'X-Service-Org': null }), 'the value of "X-Service-Org" must be a string'],
  ])('answers 500 for a 200 whose body is %s', async (_what, body, reason) => {
    answering({ status: 200, body });
    expect(await failure(get, {})).toEqual({ status: 500, code: 'unexpected', message: `Invalid response from authorization hook: ${reason}` });
  });

  it('refuses a 200 answer without a role', async () => {
    answering(json(200, { 'X-Service-User-Id': '42' }));
    expect(await failure(get, {})).toEqual({ status: 400, code: 'invalid-params', message: 'x-service-role not found in session variables' });
  });

  it('answers 500 when the webhook does not answer in time or cannot be reached', async () => {
    answering({ ...json(200, USER), delayMs: 1000 });
    expect(await failure(get, {})).toEqual({ status: 500, code: 'unexpected', message: 'webhook authentication request failed' });
    const unreachable = await createAuthenticator({
      adminSecrets: [SECRET],
      authHook: { url: 'http://127.0.0.1:1/auth', mode: 'GET', timeoutMs: 300 },
      jwtSecret: undefined,
      unauthorizedRole: undefined,
    });
    expect(await failure(unreachable, {})).toMatchObject({ status: 500, message: 'webhook authentication request failed' });
    unreachable.close();
  });

  it('answers 500 when the answer is larger than 1 MiB', async () => {
    answering(json(200, { ...USER, padding: 'x'.repeat(1 << 20) }));
    expect(await failure(get, {})).toEqual({ status: 500, code: 'unexpected', message: 'webhook authentication request failed' });
  });

  it("forwards the webhook's Set-Cookie headers with the session", async () => {
    answering(json(200, USER, { 'set-cookie': ['a=1; HttpOnly', 'b=2'] }));
    expect((await session(get, {})).setCookies).toEqual(['a=1; HttpOnly', 'b=2']);
  });

  it('is skipped with the right admin secret, which makes the caller admin acting as any role', async () => {
    const s = await session(get, { 'x-service-admin-secret': SECRET, 'x-service-role': 'user', 'x-service-user-id': '5' });
    expect(s).toEqual({ role: 'user', variables: { 'x-service-role': 'user', 'x-service-user-id': '5' }, isAdmin: true, useBackendOnlyPermissions: false });
    expect((await session(get, { 'x-service-access-key': SECRET })).role).toBe('admin');
    expect(server.calls).toHaveLength(0);
  });

  it('refuses a wrong admin secret without calling the webhook', async () => {
    expect(await failure(get, { 'x-service-admin-secret': 'wrong' })).toEqual({
      status: 401,
      code: 'access-denied',
      message: 'invalid x-service-admin-secret/x-service-access-key',
    });
    expect(server.calls).toHaveLength(0);
  });
});

describe('caching per credential', () => {
  it('reuses an answer with Cache-Control: max-age for the same headers until it expires', async () => {
    answering(json(200, { ...USER, 'Cache-Control': 'max-age=1' }, { 'set-cookie': 'fresh=1' }));
    const before = Date.now();
    const first = await session(get, { authorization: 'Bearer one' });
    expect(first.expiresAt).toBeGreaterThanOrEqual(before + 1000);
    expect(first.setCookies).toEqual(['fresh=1']);
    const again = await session(get, { authorization: 'Bearer one' });
    expect(server.calls).toHaveLength(1);
    // A hit carries the session and its expiry, but not the cookie sent with the first answer.
    expect(again).toEqual({ ...first, setCookies: undefined, expiresAt: first.expiresAt });
    expect(again.setCookies).toBeUndefined();
    await session(get, { authorization: 'Bearer two' });
    expect(server.calls).toHaveLength(2);
    await sleep(1100);
    await session(get, { authorization: 'Bearer one' });
    expect(server.calls).toHaveLength(3);
  });

  it('reuses an answer with Expires until that time', async () => {
    const expires = new Date(Math.floor(Date.now() / 1000) * 1000 + 2000);
    answering(json(200, { ...USER, Expires: expires.toUTCString() }));
    expect((await session(get, { authorization: 'Bearer exp' })).expiresAt).toBe(expires.getTime());
    await session(get, { authorization: 'Bearer exp' });
    expect(server.calls).toHaveLength(1);
    await sleep(expires.getTime() - Date.now() + 50);
    await session(get, { authorization: 'Bearer exp' });
    expect(server.calls).toHaveLength(2);
  });

  it.each([
    ['no cache key', {}],
    ['an Expires in the past', { Expires: 'Mon, 30 Mar 2020 13:25:18 GMT' }],
    ['an unparsable max-age', { 'Cache-Control': 'max-age=soon' }],
    ['an Expires in another format', { Expires: '2099-01-01T00:00:00Z' }],
  ])('calls the webhook every time for %s', async (_what, keys) => {
    answering(json(200, { ...USER, ...keys }));
    await session(get, { authorization: 'Bearer nc' });
    await session(get, { authorization: 'Bearer nc' });
    expect(server.calls).toHaveLength(2);
  });
});

describe('POST mode', () => {
  it('sends {headers, request} as JSON: every client header, and the parsed client body', async () => {
    const headers = { 'content-type': 'application/json', 'user-agent': 'client/1', authorization: 'Bearer p', 'x-service-role': 'admin' };
    const body = { query: 'query Q($a: Int) { t(where: {id: {_eq: $a}}) { id } }', variables: { a: 1 }, operationName: 'Q' };
    await session(post, headers, JSON.stringify(body));
    const [call] = server.calls;
    expect(call?.method).toBe('POST');
    expect(call?.headers['content-type']).toBe('application/json');
    expect(call?.headers['user-agent']).toBe('service-graphql-engine');
    expect(JSON.parse(call?.body ?? '')).toEqual({ headers, request: body });
  });

  it('leaves out `request` when the client body is not valid JSON, or there is none', async () => {
    await session(post, { authorization: 'Bearer p' }, '{not json');
    await session(post, { authorization: 'Bearer p' }, null);
    expect(server.calls.map((c) => JSON.parse(c.body))).toEqual([{ headers: { authorization: 'Bearer p' } }, { headers: { authorization: 'Bearer p' } }]);
  });

  it('caches per headers and request together', async () => {
    answering(json(200, { ...USER, 'Cache-Control': 'max-age=60' }));
    await session(post, { authorization: 'Bearer c' }, '{"query":"{ a }"}');
    await session(post, { authorization: 'Bearer c' }, '{"query":"{ a }"}');
    await session(post, { authorization: 'Bearer c' }, '{"query":"{ b }"}');
    expect(server.calls).toHaveLength(2);
  });

  it.each([
    [401, 401, 'access-denied'],
    [500, 500, 'unexpected'],
  ])('maps a %i answer to %i', async (status, expected, code) => {
    answering({ status });
    expect(await failure(post, {})).toMatchObject({ status: expected, code });
  });
});

describe('WebSocket connection_init', () => {
  it('reads headers from payload.headers or the top level, over the upgrade request, with the expiry of the answer', async () => {
    answering(json(200, { ...USER, 'Cache-Control': 'max-age=600' }));
    const s = await get.authenticateWebSocket({ headers: { Authorization: 'Bearer ws' } }, { cookie: 'c=1', 'sec-websocket-key': 'k', upgrade: 'websocket' });
    expect(isAuthFailure(s) ? undefined : s.expiresAt).toBeGreaterThan(Date.now() + 590_000);
    expect(server.calls[0]?.headers.authorization).toBe('Bearer ws');
    expect(server.calls[0]?.headers.cookie).toBe('c=1');
    expect(server.calls[0]?.headers['sec-websocket-key']).toBeUndefined();
    await get.authenticateWebSocket({ Authorization: 'Bearer top', lazy: true }, {});
    expect(server.calls[1]?.headers.authorization).toBe('Bearer top');
  });

  it('shows a POST-mode webhook the headers without a request', async () => {
    await post.authenticateWebSocket({ headers: { Authorization: 'Bearer ws' } });
    expect(JSON.parse(server.calls[0]?.body ?? '')).toEqual({ headers: { authorization: 'Bearer ws' } });
  });

  it('refuses a payload that is not an object, or non-string headers', async () => {
    expect(await get.authenticateWebSocket('token')).toEqual({ status: 400, code: 'parse-failed', message: 'the connection_init payload must be an object' });
    expect(await get.authenticateWebSocket({ headers: { Authorization: 1 } })).toEqual({
      status: 400,
      code: 'parse-failed',
      message: 'the connection_init header "Authorization" must be a string',
    });
    expect(server.calls).toHaveLength(0);
  });
});
