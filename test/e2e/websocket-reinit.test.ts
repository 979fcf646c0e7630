/**
 * A second `connection_init` on an acknowledged socket, as users of both sub-protocols meet
 * it: authenticated again (JWT, auth webhook) from its own payload, acknowledged, later
 * operations run with the new session while running subscriptions keep theirs; refused, it
 * ends the connection. Choices: docs/behaviour.md "WebSocket protocols".
 */
import { createClient, type Client } from 'graphql-ws';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { freshDatabase, type TestDatabase } from '../support/db.js';
import { startEngine, type Engine } from '../support/engine.js';
import { connectWs, nextOf, type WsClient } from '../support/ws-client.js';
import { startServer, type TestServer } from '../auth/http-server.js';
import { bearer, inSeconds, serviceClaims, sign, signingKey } from '../auth/tokens.js';

let db: TestDatabase;
let jwtEngine: Engine;
let hookEngine: Engine;
let hook: TestServer;
const key = signingKey('RS256');
const adminHeaders = { 'X-Service-Admin-Secret': 'adm' };

/** `user` sees its own notes; `auditor` sees every note. */
const noteTable = {
  table: { schema: 'public', name: 'note' },
  select_permissions: [
    { role: 'user', permission: { columns: ['id', 'owner'], filter: { owner: { _eq: 'X-Service-User-Id' } } } },
    { role: 'auditor', permission: { columns: ['id', 'owner'], filter: {} } },
  ],
};

/** The webhook's sessions, by the `Authorization` header it is shown. */
const HOOK_SESSIONS: Record<string, Record<string, string>> = {
  'Bearer u1': { 'X-Service-Role': 'user', 'X-Service-User-Id': 'u1' },
  'Bearer auditor': { 'X-Service-Role': 'auditor' },
};

beforeAll(async () => {
  db = await freshDatabase();
  await db.sql(`CREATE TABLE note (id serial PRIMARY KEY, owner text NOT NULL);
    INSERT INTO note (owner) VALUES ('u1'), ('u2'), ('u1');`);
  hook = await startServer((call) => {
    const session = HOOK_SESSIONS[String(call.headers.authorization)];
    return session ? { status: 200, body: JSON.stringify(session) } : { status: 401 };
  });
  const env = { SERVICE_GRAPHQL_DATABASE_URL: db.url, SERVICE_GRAPHQL_ADMIN_SECRET: 'adm', SERVICE_GRAPHQL_LIVE_QUERIES_MULTIPLEXED_REFETCH_INTERVAL: '100' };
  jwtEngine = await startEngine({ ...env, SERVICE_GRAPHQL_JWT_SECRET: JSON.stringify({ type: 'RS256', key: key.configKey }) });
  const exported = (await jwtEngine.metadata({ type: 'export_metadata', args: {} }, adminHeaders)).body;
  exported.sources[0].tables = [noteTable];
  expect((await jwtEngine.metadata({ type: 'replace_metadata', args: exported }, adminHeaders)).status).toBe(200);
  // The other engine reads the same metadata database when it starts.
  hookEngine = await startEngine({ ...env, SERVICE_GRAPHQL_AUTH_HOOK: hook.url });
});

afterAll(async () => {
  await Promise.all([jwtEngine?.stop(), hookEngine?.stop()]);
  await hook?.close();
  await db?.drop();
});

const opened: (() => void)[] = [];
afterEach(async () => {
  for (const close of opened.splice(0)) close();
  await db.sql(`DELETE FROM note WHERE id > 3`);
});

const wsUrl = (e: Engine) => e.url.replace('http', 'ws') + '/v1/graphql';
const token = (role: 'user' | 'auditor') => sign(key, { ...serviceClaims([role], role, role === 'user' ? { 'x-service-user-id': 'u1' } : {}), exp: inSeconds(600) });
const ids = (result: any) => result.data.note.map((n: { id: number }) => n.id);
const NOTES = 'subscription { note(order_by: {id: asc}) { id } }';
const QUERY = '{ note(order_by: {id: asc}) { id } }';

/** A `graphql-ws` client over a socket the test can also write to (the library sends `connection_init` once). */
function transportClient(engine: Engine, connectionParams: Record<string, unknown>, upgradeHeaders: Record<string, string> = {}) {
  let socket!: WebSocket;
  const serverMessages: any[] = [];
  let closed!: (e: { code: number; reason: string }) => void;
  const closedWith = new Promise<{ code: number; reason: string }>((resolve) => (closed = resolve));
  class WithHeaders extends WebSocket {
    constructor(url: string, protocols: string | string[]) {
      super(url, protocols, { headers: upgradeHeaders });
    }
  }
  const client: Client = createClient({
    url: wsUrl(engine),
    webSocketImpl: WithHeaders,
    retryAttempts: 0,
    lazy: false,
    onNonLazyError: () => {},
    connectionParams,
    on: {
      connected: (s) => (socket = s as WebSocket),
      message: (m) => void serverMessages.push(m),
      closed: (e) => closed({ code: (e as { code: number }).code, reason: String((e as { reason: unknown }).reason) }),
    },
  });
  opened.push(() => void client.dispose());
  return {
    client,
    closedWith,
    /** Sends `connection_init` on the open socket; resolves at its acknowledgement. */
    async reinit(payload: unknown): Promise<void> {
      await expect.poll(() => socket !== undefined).toBe(true);
      const acks = serverMessages.filter((m) => m.type === 'connection_ack').length;
      socket.send(JSON.stringify({ type: 'connection_init', payload }));
      await expect.poll(() => serverMessages.filter((m) => m.type === 'connection_ack').length).toBe(acks + 1);
    },
    /** Sends `connection_init` on the open socket without waiting for anything. */
    async sendInit(payload: unknown): Promise<void> {
      await expect.poll(() => socket !== undefined).toBe(true);
      socket.send(JSON.stringify({ type: 'connection_init', payload }));
    },
  };
}

/** The results of an operation of the graphql-ws client, one at a time. */
function results(client: Client, query: string) {
  const queue: any[] = [];
  const stop = client.subscribe({ query }, { next: (v) => void queue.push(v), error: (e) => void queue.push({ failed: e }), complete: () => {} });
  opened.push(stop);
  return {
    next: async () => {
      await expect.poll(() => queue.length, { timeout: 5000 }).toBeGreaterThan(0);
      return queue.shift();
    },
  };
}

async function legacySocket(engine: Engine, payload: unknown, upgradeHeaders: Record<string, string> = {}): Promise<WsClient> {
  const ws = await connectWs(wsUrl(engine), 'graphql-ws', upgradeHeaders);
  opened.push(() => ws.close());
  ws.send({ type: 'connection_init', payload });
  expect(await nextOf(ws, 'connection_ack')).toEqual({ type: 'connection_ack' });
  return ws;
}

/** The next message of the operation `id` (keep-alives skipped). */
async function nextFor(ws: WsClient, id: string): Promise<any> {
  for (;;) {
    const m = await ws.next();
    if (m.closed) throw new Error(`closed ${m.closed} ${m.reason}`);
    if (m.id === id) return m;
  }
}

describe('JWT', () => {
  it('graphql-transport-ws: a new token with another role is acknowledged, later operations run as it, a running subscription keeps its role', async () => {
    const t = transportClient(jwtEngine, { headers: bearer(await token('user')) });
    const notes = results(t.client, NOTES);
    expect(ids(await notes.next())).toEqual([1, 3]);
    await t.reinit({ headers: bearer(await token('auditor')) });
    const asAuditor = results(t.client, QUERY);
    expect(ids(await asAuditor.next())).toEqual([1, 2, 3]);
    // A note of u1 reaches the subscription; one of u2 would be seen by the auditor only.
    await db.sql(`INSERT INTO note (id, owner) VALUES (4, 'u2'), (5, 'u1')`);
    expect(ids(await notes.next())).toEqual([1, 3, 5]);
  });

  it('graphql-ws (legacy): the same', async () => {
    const ws = await legacySocket(jwtEngine, { headers: bearer(await token('user')) });
    ws.send({ id: 's', type: 'start', payload: { query: NOTES } });
    expect(ids((await nextFor(ws, 's')).payload)).toEqual([1, 3]);
    ws.send({ type: 'connection_init', payload: { headers: bearer(await token('auditor')) } });
    expect(await nextOf(ws, 'connection_ack')).toEqual({ type: 'connection_ack' });
    ws.send({ id: 'q', type: 'start', payload: { query: QUERY } });
    expect(ids((await nextFor(ws, 'q')).payload)).toEqual([1, 2, 3]);
    expect(await nextFor(ws, 'q')).toEqual({ id: 'q', type: 'complete' });
    await db.sql(`INSERT INTO note (id, owner) VALUES (4, 'u2'), (5, 'u1')`);
    expect(ids((await nextFor(ws, 's')).payload)).toEqual([1, 3, 5]);
  });
});

describe('auth webhook', () => {
  it('graphql-ws (legacy): asked again for each connection_init, shown the new payload\'s headers and not the upgrade request\'s; refused, connection_error and close', async () => {
    const from = hook.calls.length;
    const ws = await legacySocket(hookEngine, {}, { authorization: 'Bearer u1', 'x-from-upgrade': 'yes' });
    ws.send({ id: 's', type: 'start', payload: { query: NOTES } });
    expect(ids((await nextFor(ws, 's')).payload)).toEqual([1, 3]);
    ws.send({ type: 'connection_init', payload: { headers: { Authorization: 'Bearer auditor' } } });
    expect(await nextOf(ws, 'connection_ack')).toEqual({ type: 'connection_ack' });
    ws.send({ id: 'q', type: 'start', payload: { query: QUERY } });
    expect(ids((await nextFor(ws, 'q')).payload)).toEqual([1, 2, 3]);
    const calls = hook.calls.slice(from);
    expect(calls).toHaveLength(2);
    expect(calls.map((c) => [c.headers.authorization, c.headers['x-from-upgrade']])).toEqual([
      ['Bearer u1', 'yes'],
      ['Bearer auditor', undefined],
    ]);
    await db.sql(`INSERT INTO note (id, owner) VALUES (4, 'u2'), (5, 'u1')`);
    expect(ids((await nextFor(ws, 's')).payload)).toEqual([1, 3, 5]);
    // Without a credential of its own, the upgrade request's is not used: refused.
    ws.send({ type: 'connection_init', payload: {} });
    expect(await nextOf(ws, 'connection_error')).toEqual({ type: 'connection_error', payload: { message: 'Authentication hook unauthorized this request', extensions: { path: '$', code: 'access-denied' } } });
    expect(await nextOf(ws, 'none')).toMatchObject({ closed: 4403 });
    expect(hook.calls.length - from).toBe(3);
  });

  it('graphql-transport-ws: asked again, later operations run with its session; refused, the socket closes with 4403', async () => {
    const from = hook.calls.length;
    const t = transportClient(hookEngine, {}, { authorization: 'Bearer u1' });
    const notes = results(t.client, NOTES);
    expect(ids(await notes.next())).toEqual([1, 3]);
    await t.reinit({ headers: { Authorization: 'Bearer auditor' } });
    expect(ids(await results(t.client, QUERY).next())).toEqual([1, 2, 3]);
    expect(hook.calls.slice(from).map((c) => c.headers.authorization)).toEqual(['Bearer u1', 'Bearer auditor']);
    await t.sendInit({ headers: { Authorization: 'Bearer nobody' } });
    expect(await t.closedWith).toEqual({ code: 4403, reason: 'Authentication hook unauthorized this request' });
    expect(hook.calls.length - from).toBe(3);
  });
});
