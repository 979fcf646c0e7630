/** Authentication through the real /v1/graphql route: admin secret, JWT, auth webhook, unauthorized role. */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../support/db.js';
import { startEngine, type Engine } from '../support/engine.js';
import { startServer, type TestServer } from '../auth/http-server.js';
import { bearer, inSeconds, serviceClaims, sign, signingKey } from '../auth/tokens.js';

let db: TestDatabase;
const engines: Engine[] = [];
let hook: TestServer;
const key = signingKey('RS256');

const metadata = {
  table: { schema: 'public', name: 'note' },
  select_permissions: [
    { role: 'user', permission: { columns: ['id', 'body'], filter: { owner: { _eq: 'X-Service-User-Id' } } } },
    { role: 'anonymous', permission: { columns: ['id'], filter: { public: { _eq: true } } } },
  ],
};

async function engine(env: Record<string, string>): Promise<Engine> {
  const e = await startEngine({ SERVICE_GRAPHQL_DATABASE_URL: db.url, SERVICE_GRAPHQL_ADMIN_SECRET: 'adm', ...env });
  engines.push(e);
  return e;
}

const notes = (e: Engine, headers: Record<string, string>) => e.post('/v1/graphql', { query: '{ note(order_by: {id: asc}) { id } }' }, headers);

beforeAll(async () => {
  db = await freshDatabase();
  await db.sql(`CREATE TABLE note (id serial PRIMARY KEY, body text, owner text, public boolean NOT NULL DEFAULT false);
    INSERT INTO note (body, owner, public) VALUES ('a', 'u1', true), ('b', 'u2', false), ('c', 'u1', false);`);
  hook = await startServer((call) => {
    if (call.headers.authorization === 'Bearer good') return { status: 200, body: JSON.stringify({ 'X-Service-Role': 'user', 'X-Service-User-Id': 'u2' }), headers: { 'set-cookie': 'seen=1' } };
    if (call.headers.authorization === 'Bearer broken') return { status: 503 };
    return { status: 401 };
  });
  const admin = await engine({});
  const exp = (await admin.metadata({ type: 'export_metadata', args: {} }, { 'X-Service-Admin-Secret': 'adm' })).body;
  exp.sources[0].tables = [metadata];
  expect((await admin.metadata({ type: 'replace_metadata', args: exp }, { 'X-Service-Admin-Secret': 'adm' })).status).toBe(200);
});

afterAll(async () => {
  await Promise.all(engines.map((e) => e.stop()));
  await hook?.close();
  await db?.drop();
});

describe('admin secret', () => {
  it('lets the admin act as any role, and refuses a wrong secret', async () => {
    const e = engines[0]!;
    expect((await notes(e, { 'X-Service-Admin-Secret': 'adm' })).body.data.note).toHaveLength(3);
    const asUser = await notes(e, { 'X-Service-Admin-Secret': 'adm', 'X-Service-Role': 'user', 'X-Service-User-Id': 'u1' });
    expect(asUser.body.data.note).toEqual([{ id: 1 }, { id: 3 }]);
    const wrong = await notes(e, { 'X-Service-Admin-Secret': 'nope' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.errors[0].extensions.code).toBe('access-denied');
    const none = await notes(e, {});
    expect(none.status).toBe(401);
  });
});

describe('JWT mode', () => {
  it('takes the role and session variables from the token, and refuses bad tokens', async () => {
    const e = await engine({ SERVICE_GRAPHQL_JWT_SECRET: JSON.stringify({ type: 'RS256', key: key.configKey }), SERVICE_GRAPHQL_UNAUTHORIZED_ROLE: 'anonymous' });
    const token = await sign(key, { ...serviceClaims(['user'], 'user', { 'x-service-user-id': 'u1' }), exp: inSeconds(60) });
    expect((await notes(e, bearer(token))).body.data.note).toEqual([{ id: 1 }, { id: 3 }]);
    const expired = await sign(key, { ...serviceClaims(['user'], 'user', { 'x-service-user-id': 'u1' }), exp: inSeconds(-600) });
    const r = await notes(e, bearer(expired));
    expect(r.body.errors[0].extensions.code).toBe('invalid-jwt');
    const otherRole = await notes(e, { ...bearer(token), 'X-Service-Role': 'admin' });
    expect(otherRole.body.errors[0].extensions.code).toBe('access-denied');
    // No credentials at all: the unauthorized role.
    expect((await notes(e, {})).body.data.note).toEqual([{ id: 1 }]);
  });
});

describe('webhook mode', () => {
  it('asks the webhook, forwards its cookie, maps 401 and other statuses', async () => {
    const e = await engine({ SERVICE_GRAPHQL_AUTH_HOOK: hook.url });
    const res = await fetch(e.url + '/v1/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer good' },
      body: JSON.stringify({ query: '{ note { id } }' }),
    });
    expect(await res.json()).toEqual({ data: { note: [{ id: 2 }] } });
    expect(res.headers.get('set-cookie')).toBe('seen=1');
    expect((await notes(e, { authorization: 'Bearer bad' })).status).toBe(401);
    expect((await notes(e, { authorization: 'Bearer broken' })).status).toBe(500);
  });

  it('shows a GET webhook exactly the client headers spec item 6 does not exclude', async () => {
    const e = await engine({ SERVICE_GRAPHQL_AUTH_HOOK: hook.url });
    const body = JSON.stringify({ query: '{ note { id } }' });
    const allowed = { Authorization: 'Bearer good', Cookie: 'c=1', 'X-Custom': 'custom', 'X-Service-Role': 'admin' };
    const excluded = {
      'Content-Length': String(Buffer.byteLength(body)),
      'Content-Type': 'application/json',
      'Content-MD5': 'Q2hlY2sgSW50ZWdyaXR5IQ==',
      'User-Agent': 'client/1.0',
      Host: 'client.example',
      Origin: 'https://client.example',
      Referer: 'https://client.example/page',
      Accept: 'application/json',
      'Accept-Encoding': 'gzip',
      'Accept-Language': 'fr',
      'Accept-Datetime': 'Thu, 31 May 2007 20:35:00 GMT',
      'Cache-Control': 'no-cache',
      Connection: 'keep-alive',
      DNT: '1',
    };
    hook.calls.length = 0;
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(e.url + '/v1/graphql', { method: 'POST', headers: { ...excluded, ...allowed } }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      req.end(body);
    });
    expect(status).toBe(200);
    const lower = Object.fromEntries(Object.entries(allowed).map(([name, value]) => [name.toLowerCase(), value]));
    // Besides the forwarded headers, only the engine's own connection headers.
    expect(hook.calls[0]?.headers).toEqual({ ...lower, 'user-agent': 'service-graphql-engine', host: new URL(hook.url).host, connection: 'keep-alive' });
  });
});
