/**
 * The TLS allow-list (spec "TLS allow-list entry", "Network options") against a real HTTPS auth
 * webhook whose certificate is self-signed and made for another name: the engine refuses it
 * until its host (and port, when the entry has a suffix) is listed, and again once dropped.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../auth/http-server.js';
import { freshDatabase, type TestDatabase } from '../support/db.js';
import { startEngine, type Engine } from '../support/engine.js';
import { selfSignedCertificate } from '../support/self-signed.js';

const ADMIN = { 'X-Service-Admin-Secret': 'adm' };
let db: TestDatabase;
let engine: Engine;
let hook: TestServer;
let port: string;

const admin = (type: string, args: unknown) => engine.metadata({ type, args }, ADMIN);
const asUser = () => engine.post('/v1/graphql', { query: '{ note { id } }' }, { authorization: 'Bearer good' });

async function expectRefused(): Promise<void> {
  const calls = hook.calls.length;
  const res = await asUser();
  expect(res.status).toBe(500);
  expect(res.body).toEqual({ errors: [{ message: 'webhook authentication request failed', extensions: { path: '$', code: 'unexpected' } }] });
  // The handshake failed: the webhook never saw the request.
  expect(hook.calls.length).toBe(calls);
}

async function expectAccepted(): Promise<void> {
  const res = await asUser();
  expect(res.body).toEqual({ data: { note: [{ id: 1 }] } });
}

const exportedNetwork = async () => (await admin('export_metadata', {})).body.network;

beforeAll(async () => {
  db = await freshDatabase();
  await db.sql(`CREATE TABLE note (id serial PRIMARY KEY, body text); INSERT INTO note (body) VALUES ('a');`);
  hook = await startServer(() => ({ status: 200, body: JSON.stringify({ 'X-Service-Role': 'user' }) }), selfSignedCertificate());
  port = new URL(hook.url).port;
  engine = await startEngine({ SERVICE_GRAPHQL_DATABASE_URL: db.url, SERVICE_GRAPHQL_ADMIN_SECRET: 'adm', SERVICE_GRAPHQL_AUTH_HOOK: hook.url, SERVICE_GRAPHQL_LOG_LEVEL: 'debug' });
  expect((await admin('pg_track_table', { table: 'note' })).status).toBe(200);
  expect((await admin('pg_create_select_permission', { table: 'note', role: 'user', permission: { columns: ['id'], filter: {} } })).status).toBe(200);
});

afterAll(async () => {
  await engine?.stop();
  await hook?.close();
  await db?.drop();
});

describe('TLS allow-list', () => {
  it('verifies a webhook certificate until its host and port are listed, and again once dropped', async () => {
    await expectRefused();
    // Another port of the same host: still verified.
    const otherPort = String(Number(port) === 65535 ? 1 : Number(port) + 1);
    expect((await admin('add_host_to_tls_allowlist', { host: '127.0.0.1', suffix: otherPort, permissions: ['self-signed'] })).body).toEqual({ message: 'success' });
    await expectRefused();
    expect((await admin('add_host_to_tls_allowlist', { host: '127.0.0.1', suffix: port, permissions: ['self-signed'] })).status).toBe(200);
    await expectAccepted();
    expect(await exportedNetwork()).toEqual({
      tls_allowlist: [
        { host: '127.0.0.1', suffix: otherPort, permissions: ['self-signed'] },
        { host: '127.0.0.1', suffix: port, permissions: ['self-signed'] },
      ],
    });
    expect((await admin('drop_host_from_tls_allowlist', { host: '127.0.0.1', suffix: port })).body).toEqual({ message: 'success' });
    await expectRefused();
    expect((await admin('drop_host_from_tls_allowlist', { host: '127.0.0.1', suffix: otherPort })).status).toBe(200);
    expect(await exportedNetwork()).toBeUndefined();
  });

  it('takes the bare host name, which covers every port, and drops it by name', async () => {
    expect((await admin('add_host_to_tls_allowlist', '127.0.0.1')).status).toBe(200);
    await expectAccepted();
    expect(await exportedNetwork()).toEqual({ tls_allowlist: [{ host: '127.0.0.1' }] });
    // The list is no part of any plan: changing it keeps the compiled ones.
    const compiled = () => engine.logs.filter((l) => l.includes('"message":"plan compiled"')).length;
    const before = compiled();
    expect((await admin('add_host_to_tls_allowlist', 'elsewhere.test')).status).toBe(200);
    await expectAccepted();
    expect(compiled()).toBe(before);
    expect((await admin('drop_host_from_tls_allowlist', 'elsewhere.test')).status).toBe(200);
    expect((await admin('drop_host_from_tls_allowlist', { host: '127.0.0.1' })).status).toBe(200);
    await expectRefused();
  });

  it('is replaced with the document and emptied by clear_metadata', async () => {
    const doc = (await admin('export_metadata', {})).body;
    expect((await admin('replace_metadata', { ...doc, network: { tls_allowlist: ['127.0.0.1'] } })).status).toBe(200);
    expect(await exportedNetwork()).toEqual({ tls_allowlist: [{ host: '127.0.0.1' }] });
    await expectAccepted();
    expect((await admin('replace_metadata', doc)).status).toBe(200);
    await expectRefused();
    expect((await admin('replace_metadata', { ...doc, network: { tls_allowlist: [{ host: '127.0.0.1' }] } })).status).toBe(200);
    await expectAccepted();
    expect((await admin('clear_metadata', {})).status).toBe(200);
    expect(await exportedNetwork()).toBeUndefined();
    expect((await admin('replace_metadata', doc)).status).toBe(200);
    await expectRefused();
  });

  it('refuses bad arguments with clear errors', async () => {
    const cases: [string, unknown, number, string, string, string][] = [
      ['add_host_to_tls_allowlist', {}, 400, 'parse-failed', '$.args', 'key "host" not found'],
      ['add_host_to_tls_allowlist', '', 400, 'parse-failed', '$.args', 'empty string not allowed'],
      ['add_host_to_tls_allowlist', { host: '' }, 400, 'parse-failed', '$.args.host', 'empty string not allowed'],
      ['add_host_to_tls_allowlist', { host: 'a.test', permissions: ['anything'] }, 400, 'parse-failed', '$.args.permissions[0]', 'unexpected TLS permission "anything"; expected one of self-signed'],
      ['add_host_to_tls_allowlist', { host: 'a.test', port: 443 }, 400, 'parse-failed', '$.args', 'unexpected fields in $.args: port'],
      ['add_host_to_tls_allowlist', 42, 400, 'parse-failed', '$.args', ''],
      ['drop_host_from_tls_allowlist', { host: 'nowhere.test' }, 400, 'not-exists', '$.args', `the host "nowhere.test" isn't present in the allowlist`],
      ['drop_host_from_tls_allowlist', {}, 400, 'parse-failed', '$.args', 'key "host" not found'],
    ];
    for (const [type, args, status, code, path, message] of cases) {
      const res = await admin(type, args);
      expect({ type, args, status: res.status, code: res.body.code, path: res.body.path }).toEqual({ type, args, status, code, path });
      if (message) expect(res.body.error).toContain(message);
    }
    expect((await admin('add_host_to_tls_allowlist', { host: 'a.test', suffix: '8443' })).status).toBe(200);
    const twice = await admin('add_host_to_tls_allowlist', { host: 'a.test', suffix: '8443' });
    expect(twice.status).toBe(400);
    expect(twice.body).toEqual({ path: '$.args', error: 'the host "a.test" with suffix "8443" already exists in the allowlist', code: 'already-exists' });
    const dup = await admin('replace_metadata', { version: 3, sources: [], network: { tls_allowlist: ['b.test', { host: 'b.test' }] } });
    expect(dup.status).toBe(400);
    expect(dup.body.code).toBe('already-exists');
    expect(dup.body.path).toBe('$.args');
    // Not an operation of the deprecated API.
    expect((await engine.query({ type: 'add_host_to_tls_allowlist', args: { host: 'c.test' } }, ADMIN)).body.code).toBe('not-supported');
  });
});
