/**
 * CORS (allowed origins, preflights, disabled CORS) and cookies as credentials: a
 * cookie-authenticated POST needs a JSON content type, a WebSocket from a foreign origin loses
 * its cookie. Also who may use `/v1/graphql/explain`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../support/db.js';
import { startEngine, type Engine } from '../support/engine.js';
import { connectWs } from '../support/ws-client.js';
import { startServer, type TestServer } from '../auth/http-server.js';
import { inSeconds, serviceClaims, sign, signingKey } from '../auth/tokens.js';

const key = signingKey('HS256');
const admin = { 'x-service-admin-secret': 'adm' };
let db: TestDatabase;
let jwtEngine: Engine;
let hookEngine: Engine;
let hook: TestServer;
let userCookie: string;

beforeAll(async () => {
  db = await freshDatabase();
  await db.sql(`CREATE TABLE note (id serial PRIMARY KEY, owner text NOT NULL); INSERT INTO note (owner) VALUES ('u1'), ('u2');`);
  hook = await startServer((call) => (call.headers.cookie === 'session=good' ? { status: 200, body: JSON.stringify({ 'X-Service-Role': 'user', 'X-Service-User-Id': 'u1' }) } : { status: 401 }));
  const common = { SERVICE_GRAPHQL_DATABASE_URL: db.url, SERVICE_GRAPHQL_ADMIN_SECRET: 'adm' };
  [jwtEngine, hookEngine] = await Promise.all([
    startEngine({
      ...common,
      SERVICE_GRAPHQL_JWT_SECRET: JSON.stringify({ type: 'HS256', key: key.configKey, header: { type: 'Cookie', name: 'token' } }),
      SERVICE_GRAPHQL_CORS_DOMAIN: 'https://app.example.com, http://localhost:3000, https://*.example.org',
    }),
    startEngine({ ...common, SERVICE_GRAPHQL_AUTH_HOOK: hook.url, SERVICE_GRAPHQL_DISABLE_CORS: 'true' }),
  ]);
  const exp = (await jwtEngine.metadata({ type: 'export_metadata', args: {} }, admin)).body;
  exp.sources[0].tables = [{ table: { schema: 'public', name: 'note' }, select_permissions: [{ role: 'user', permission: { columns: ['id'], filter: { owner: { _eq: 'X-Service-User-Id' } } } }] }];
  expect((await jwtEngine.metadata({ type: 'replace_metadata', args: exp }, admin)).status).toBe(200);
  await hookEngine.metadata({ type: 'reload_metadata', args: {} }, admin);
  userCookie = `token=${await sign(key, { ...serviceClaims(['user'], 'user', { 'x-service-user-id': 'u1' }), exp: inSeconds(600) })}`;
});

afterAll(async () => {
  await Promise.all([jwtEngine?.stop(), hookEngine?.stop()]);
  await hook?.close();
  await db?.drop();
});

const json = (r: Response): Promise<any> => r.json();
const NOTES = JSON.stringify({ query: '{ note { id } }' });
const send = (e: Engine, path: string, init: RequestInit) => fetch(e.url + path, init);
const POST_ROUTES = ['/v1/graphql', '/v1/graphql/explain', '/v1/metadata', '/v1/query', '/v2/query'];

describe('CORS with a list of origins', () => {
  it('answers a preflight on every POST route with the origin, methods, requested headers and max-age', async () => {
    for (const path of POST_ROUTES) {
      const r = await send(jwtEngine, path, { method: 'OPTIONS', headers: { origin: 'https://app.example.com', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, x-service-role' } });
      expect(r.status).toBe(204);
      expect(r.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
      expect(r.headers.get('access-control-allow-credentials')).toBe('true');
      expect(r.headers.get('access-control-allow-methods')).toContain('POST');
      expect(r.headers.get('access-control-allow-headers')).toBe('content-type, x-service-role');
      expect(r.headers.get('access-control-max-age')).toBe('1728000');
      expect(r.headers.get('vary')).toBe('Origin');
    }
  });

  it('allows one-label subdomains of a wildcard domain, with scheme and port significant', async () => {
    const allowed = async (origin: string) => (await send(jwtEngine, '/v1/graphql', { method: 'OPTIONS', headers: { origin } })).headers.get('access-control-allow-origin');
    expect(await allowed('https://a.example.org')).toBe('https://a.example.org');
    expect(await allowed('http://localhost:3000')).toBe('http://localhost:3000');
    for (const origin of ['https://example.org', 'https://a.b.example.org', 'http://a.example.org', 'https://a.example.org:8443', 'http://localhost:3001', 'https://evil.com']) {
      expect(await allowed(origin)).toBeNull();
    }
  });

  it('puts the CORS headers on answers to allowed origins only', async () => {
    const ok = await send(jwtEngine, '/v1/graphql', { method: 'POST', headers: { origin: 'https://app.example.com', 'content-type': 'application/json', ...admin }, body: NOTES });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    expect(ok.headers.get('vary')).toBe('Origin, Accept');
    const foreign = await send(jwtEngine, '/v1/metadata', { method: 'POST', headers: { origin: 'https://evil.com', ...admin }, body: JSON.stringify({ type: 'export_metadata', args: {} }) });
    expect(foreign.status).toBe(200);
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('a JWT read from a cookie', () => {
  it('authenticates a JSON POST, and a POST of any other content type is 415 before it runs', async () => {
    const ok = await send(jwtEngine, '/v1/graphql', { method: 'POST', headers: { cookie: userCookie, 'content-type': 'application/json; charset=utf-8' }, body: NOTES });
    expect(await json(ok)).toEqual({ data: { note: [{ id: 1 }] } });
    for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', undefined]) {
      const r = await send(jwtEngine, '/v1/graphql', { method: 'POST', headers: { cookie: userCookie, ...(contentType ? { 'content-type': contentType } : {}) }, body: contentType ? NOTES : new Blob([NOTES]) });
      expect(r.status).toBe(415);
      expect(await json(r)).toEqual({ errors: [{ message: 'a request authenticated by a cookie must have Content-Type: application/json', extensions: { path: '$', code: 'unsupported-media-type' } }] });
    }
    // The admin secret is a header: no content type needed.
    const byHeader = await send(jwtEngine, '/v1/graphql', { method: 'POST', headers: { cookie: userCookie, 'content-type': 'text/plain', ...admin }, body: NOTES });
    expect((await json(byHeader)).data.note).toHaveLength(2);
  });

  it('authenticates a WebSocket only from an allowed origin (or a client that sends no Origin)', async () => {
    const init = async (headers: Record<string, string>) => {
      const ws = await connectWs(jwtEngine.url.replace('http', 'ws') + '/v1/graphql', 'graphql-transport-ws', headers);
      ws.send({ type: 'connection_init', payload: {} });
      const first = await ws.next();
      ws.close();
      return first;
    };
    expect(await init({ cookie: userCookie, origin: 'https://app.example.com' })).toEqual({ type: 'connection_ack' });
    expect(await init({ cookie: userCookie })).toEqual({ type: 'connection_ack' });
    expect(await init({ cookie: userCookie, origin: 'https://evil.com' })).toEqual({ closed: 4403, reason: "Missing 'Authorization' or 'Cookie' header in JWT authentication mode" });
  });
});

describe('/v1/graphql/explain', () => {
  const explain = (headers: Record<string, string>) =>
    send(jwtEngine, '/v1/graphql/explain', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ query: { query: '{ note { id } }' }, user: { 'x-service-role': 'user', 'x-service-user-id': 'u1' } }) });

  it('is for the admin only', async () => {
    const none = await explain({});
    expect(none.status).toBe(401);
    expect(await json(none)).toEqual({ path: '$', error: 'invalid x-service-admin-secret/x-service-access-key', code: 'access-denied' });
    expect((await explain({ 'x-service-admin-secret': 'wrong' })).status).toBe(401);
    expect((await explain({ cookie: userCookie })).status).toBe(401);
    const asUser = await explain({ ...admin, 'x-service-role': 'user' });
    expect(asUser.status).toBe(400);
    expect((await json(asUser)).code).toBe('access-denied');
    const ok = await explain(admin);
    expect(ok.status).toBe(200);
    const [field] = await json(ok);
    expect(field.field).toBe('note');
    expect(field.sql).toContain('note');
  });
});

describe('a webhook shown a cookie, with CORS disabled', () => {
  it('refuses a non-JSON POST with 415 without calling the webhook', async () => {
    const before = hook.calls.length;
    const r = await send(hookEngine, '/v1/graphql', { method: 'POST', headers: { cookie: 'session=good', 'content-type': 'text/plain', origin: 'https://app.example.com' }, body: NOTES });
    expect(r.status).toBe(415);
    expect(hook.calls.length).toBe(before);
    const ok = await send(hookEngine, '/v1/graphql', { method: 'POST', headers: { cookie: 'session=good', 'content-type': 'application/json' }, body: NOTES });
    expect(await json(ok)).toEqual({ data: { note: [{ id: 1 }] } });
    // An Authorization header makes it a header credential.
    const withAuthorization = await send(hookEngine, '/v1/graphql', { method: 'POST', headers: { cookie: 'session=good', authorization: 'Bearer x', 'content-type': 'text/plain' }, body: NOTES });
    expect(withAuthorization.status).toBe(200);
  });

  it('sends no CORS headers at all, and answers a preflight without them', async () => {
    const r = await send(hookEngine, '/v1/graphql', { method: 'POST', headers: { origin: 'https://app.example.com', 'content-type': 'application/json', ...admin }, body: NOTES });
    expect(r.status).toBe(200);
    expect([...r.headers.keys()].filter((k) => k.startsWith('access-control'))).toEqual([]);
    expect(r.headers.get('vary')).toBe('Accept');
    const pre = await send(hookEngine, '/v1/metadata', { method: 'OPTIONS', headers: { origin: 'https://app.example.com', 'access-control-request-method': 'POST' } });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('does not show the cookie of a WebSocket upgrade to the webhook (no --ws-read-cookie)', async () => {
    const ws = await connectWs(hookEngine.url.replace('http', 'ws') + '/v1/graphql', 'graphql-transport-ws', { cookie: 'session=good' });
    ws.send({ type: 'connection_init', payload: {} });
    expect(await ws.next()).toEqual({ closed: 4403, reason: 'Authentication hook unauthorized this request' });
    ws.close();
    expect(hook.calls.at(-1)!.headers.cookie).toBeUndefined();
  });
});
