/**
 * The graceful shutdown (docs/operations.md "Graceful shutdown"): at SIGTERM the engine refuses
 * new connections, answers the requests in flight (and WebSocket queries under way), closes
 * WebSockets with 1001, lets the event deliveries and asynchronous action calls in flight end
 * within SERVICE_GRAPHQL_GRACEFUL_SHUTDOWN_TIMEOUT and hands the others back (delivered once,
 * after a restart), stops its embedded PostgreSQL, and exits 0; a second signal exits at once.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { connect as connectTcp } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { relocationFolder } from '../../src/db/pg-placement.js';
import { ActionHandler } from '../support/action-handler.js';
import { freshDatabase, type TestDatabase } from '../support/db.js';
import { startEngine, type Engine } from '../support/engine.js';
import { eventRows, invocationRows, until } from '../support/events.js';
import { connectWs, nextOf } from '../support/ws-client.js';

let db: TestDatabase;
const engines: Engine[] = [];

/**
 * A webhook that answers each call after `delayMs`: `received` holds the event ids of every call,
 * `answered` those it answered (a call cut by the engine before its answer is not delivered).
 */
interface Webhook {
  url: string;
  delayMs: number;
  received: string[];
  answered: string[];
  close(): Promise<void>;
}

async function webhook(delayMs: number): Promise<Webhook> {
  const state = { delayMs, received: [] as string[], answered: [] as string[] };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const id = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: string }).id;
      state.received.push(id);
      setTimeout(() => {
        if (res.destroyed) return;
        res.end('ok', () => state.answered.push(id));
      }, state.delayMs);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return Object.assign(state, {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  });
}

async function engine(env: Record<string, string> = {}): Promise<Engine> {
  const e = await startEngine({ SERVICE_GRAPHQL_DATABASE_URL: db.url, SERVICE_GRAPHQL_EVENTS_FETCH_INTERVAL: '100', SERVICE_GRAPHQL_GRACEFUL_SHUTDOWN_TIMEOUT: '20', ...env });
  engines.push(e);
  return e;
}

/** The engine's `shutdown: ...` log lines, as [message, fields]. */
const phases = (e: Engine): any[] =>
  e.logs.flatMap((line) => {
    try {
      const entry = (JSON.parse(line) as { detail?: { message?: string } }).detail;
      return entry?.message?.startsWith('shutdown: ') ? [entry] : [];
    } catch {
      return [];
    }
  });

const exited = (e: Engine) => new Promise<number | null>((r) => (e.process.exitCode !== null ? r(e.process.exitCode) : e.process.once('exit', (code) => r(code))));

/** Whether a new TCP connection to the engine's port is refused. */
const refused = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connectTcp(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (e: NodeJS.ErrnoException) => resolve(e.code === 'ECONNREFUSED'));
  });

/** A connection opened now, to send a raw request on later (as on a connection kept alive); resolves with the answer's text. */
async function openConnection(port: number): Promise<(request: string) => Promise<string>> {
  const socket = connectTcp(port, '127.0.0.1');
  await new Promise((r) => socket.once('connect', r));
  return (request) =>
    new Promise((resolve) => {
      let text = '';
      socket.on('data', (d: Buffer) => (text += d.toString('utf8')));
      socket.once('close', () => resolve(text));
      socket.write(request);
    });
}

const graphql = (e: Engine, query: string) => e.post('/v1/graphql', { query });

beforeAll(async () => {
  db = await freshDatabase();
  await db.sql(`
    CREATE TABLE item (id int PRIMARY KEY, name text);
    INSERT INTO item VALUES (1, 'one');
    CREATE FUNCTION slow_items(seconds float8) RETURNS SETOF item LANGUAGE sql STABLE AS $$ SELECT i.* FROM item i, pg_sleep(seconds) $$;
    CREATE TABLE burst (id int PRIMARY KEY);
    CREATE TABLE hang (id int PRIMARY KEY);`);
  const e = await engine();
  for (const args of [{ table: 'item' }, { table: 'burst' }, { table: 'hang' }]) expect((await e.metadata({ type: 'pg_track_table', args })).status).toBe(200);
  expect((await e.metadata({ type: 'pg_track_function', args: { function: 'slow_items' } })).status).toBe(200);
  await e.stop();
  engines.length = 0;
});

afterAll(async () => {
  await Promise.all(engines.map((e) => e.stop('SIGKILL')));
  await db?.drop();
});

describe('graceful shutdown', () => {
  it('answers a query in flight, refuses new connections, logs each phase and exits 0', async () => {
    const e = await engine();
    const answer = graphql(e, '{ slow_items(args: {seconds: 2}) { id name } }');
    await until('the query running', async () => (await db.sql(`SELECT 1 FROM pg_stat_activity WHERE query LIKE '%slow_items%' AND state = 'active' AND pid <> pg_backend_pid()`)).rowCount! > 0 || undefined);
    const [kept, keptForUpgrade] = await Promise.all([openConnection(e.port), openConnection(e.port)]);
    const signalled = Date.now();
    e.process.kill('SIGTERM');
    await until('no longer accepting', () => phases(e).some((p) => p.message === 'shutdown: stopped accepting connections') || undefined);
    expect(await refused(e.port)).toBe(true);
    // On connections opened before: a request is served and its connection closed; an upgrade is refused.
    const served = await kept('GET /v1/version HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(served).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(served).toMatch(/\r\nConnection: close\r\n/i);
    const upgrade = await keptForUpgrade(
      'GET /v1/graphql HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Protocol: graphql-transport-ws\r\n\r\n',
    );
    expect(upgrade).toMatch(/^HTTP\/1\.1 503 Service Unavailable\r\n/);
    expect(upgrade).toMatch(/\r\nRetry-After: 0\r\n/);
    expect(upgrade).toMatch(/Server is shutting down$/);
    const r = await answer;
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ data: { slow_items: [{ id: 1, name: 'one' }] } });
    expect(await exited(e)).toBe(0);
    expect(Date.now() - signalled).toBeLessThan(20_000);
    const lines = phases(e);
    expect(lines.map((p) => p.message)).toEqual([
      'shutdown: started',
      'shutdown: stopped accepting connections',
      'shutdown: requests and WebSockets ended',
      'shutdown: deliveries stopped',
      'shutdown: trigger-delivery actor stopped',
      'shutdown: actors and pools stopped',
    ]);
    expect(lines[0]).toMatchObject({ signal: 'SIGTERM', timeoutSeconds: 20 });
    expect(lines[2]).toMatchObject({ requests: 1, websockets: 0, unanswered: 0 });
  });

  it('answers a query under way on a WebSocket, then closes subscriptions with 1001 on both protocols, the legacy one told first', async () => {
    const e = await engine();
    const url = e.url.replace('http', 'ws') + '/v1/graphql';
    const query = 'subscription { item { id name } }';
    const modern = await connectWs(url, 'graphql-transport-ws');
    modern.send({ type: 'connection_init', payload: {} });
    expect((await nextOf(modern, 'connection_ack')).type).toBe('connection_ack');
    modern.send({ id: '1', type: 'subscribe', payload: { query } });
    expect((await nextOf(modern, 'next')).payload).toEqual({ data: { item: [{ id: 1, name: 'one' }] } });
    const legacy = await connectWs(url, 'graphql-ws');
    legacy.send({ type: 'connection_init', payload: {} });
    expect((await nextOf(legacy, 'connection_ack')).type).toBe('connection_ack');
    legacy.send({ id: '1', type: 'start', payload: { query } });
    expect((await nextOf(legacy, 'data')).payload).toEqual({ data: { item: [{ id: 1, name: 'one' }] } });

    // A query under way on the socket is answered before the close.
    modern.send({ id: '2', type: 'subscribe', payload: { query: '{ slow_items(args: {seconds: 1.5}) { id } }' } });
    await until('the query running', async () => (await db.sql(`SELECT 1 FROM pg_stat_activity WHERE query LIKE '%slow_items%' AND state = 'active' AND pid <> pg_backend_pid()`)).rowCount! > 0 || undefined);
    e.process.kill('SIGTERM');
    expect(await nextOf(modern, 'next')).toEqual({ id: '2', type: 'next', payload: { data: { slow_items: [{ id: 1 }] } } });
    expect(await nextOf(modern, 'complete')).toEqual({ id: '2', type: 'complete' });
    expect(await nextOf(modern, 'none')).toEqual({ closed: 1001, reason: 'shutting server down' });
    expect(await nextOf(legacy, 'connection_error')).toEqual({ type: 'connection_error', payload: { message: 'shutting server down', extensions: { path: '$', code: 'shutting-down' } } });
    expect(await nextOf(legacy, 'none')).toEqual({ closed: 1001, reason: 'shutting server down' });
    expect(await exited(e)).toBe(0);
    expect(phases(e).find((p) => p.message === 'shutdown: requests and WebSockets ended')).toMatchObject({ websockets: 2 });
  });

  it('lets deliveries in flight end; after a restart every event is delivered exactly once', { timeout: 90_000 }, async () => {
    const hook = await webhook(700);
    try {
      const options = { SERVICE_GRAPHQL_EVENTS_HTTP_POOL_SIZE: '6', SERVICE_GRAPHQL_EVENTS_FETCH_BATCH_SIZE: '6', SERVICE_GRAPHQL_GRACEFUL_SHUTDOWN_TIMEOUT: '10' };
      const first = await engine(options);
      const r = await first.metadata({ type: 'pg_create_event_trigger', args: { name: 'burst', table: 'burst', webhook: hook.url, insert: { columns: '*' } } });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      await db.sql('INSERT INTO burst SELECT g FROM generate_series(1, 60) g');
      // Some answered, and some sent and not answered yet.
      await until('deliveries under way', () => (hook.answered.length >= 6 && hook.received.length - hook.answered.length >= 3) || undefined, 20_000);
      const signalled = Date.now();
      first.process.kill('SIGTERM');
      expect(await exited(first)).toBe(0);
      expect(Date.now() - signalled).toBeLessThan(10_000);
      const stopped = phases(first).find((p) => p.message === 'shutdown: deliveries stopped');
      expect(stopped.inFlight).toBeGreaterThan(0);
      expect(stopped).toMatchObject({ handedBack: 0 });
      expect(stopped.finished).toBe(stopped.inFlight);
      // What was sent was answered and recorded; the rest is pending, leased by no one.
      expect(hook.received.length).toBe(hook.answered.length);
      const rows = await eventRows(db, 'burst');
      expect(rows.filter((e) => e.delivered).length).toBe(hook.answered.length);
      expect(rows.filter((e) => e.locked_by !== null)).toEqual([]);
      expect(hook.answered.length).toBeLessThan(60);

      hook.delayMs = 0;
      await engine(options);
      await until('all delivered', async () => (await eventRows(db, 'burst')).every((e) => e.delivered) || undefined, 30_000);
      const counts = new Map<string, number>();
      for (const id of hook.received) counts.set(id, (counts.get(id) ?? 0) + 1);
      expect(counts.size).toBe(60);
      expect([...counts.values()].every((n) => n === 1)).toBe(true);
      expect((await invocationRows(db, 'burst')).length).toBe(60);
    } finally {
      await Promise.all(engines.splice(0).map((e) => e.stop()));
      await hook.close();
    }
  });

  it('hands back a delivery still in flight at the deadline: cut, not recorded, delivered after a restart', { timeout: 60_000 }, async () => {
    const hook = await webhook(8_000);
    try {
      const first = await engine({ SERVICE_GRAPHQL_GRACEFUL_SHUTDOWN_TIMEOUT: '1' });
      const r = await first.metadata({ type: 'pg_create_event_trigger', args: { name: 'hang', table: 'hang', webhook: hook.url, insert: { columns: '*' }, retry_conf: { timeout_sec: 30 } } });
      expect(r.status).toBe(200);
      await db.sql('INSERT INTO hang VALUES (1)');
      await until('the call under way', () => hook.received.length === 1 || undefined);
      const signalled = Date.now();
      first.process.kill('SIGTERM');
      expect(await exited(first)).toBe(0);
      // The timeout (1 s) and the last phases, not the webhook's 8 s.
      expect(Date.now() - signalled).toBeLessThan(5_000);
      expect(phases(first).find((p) => p.message === 'shutdown: deliveries stopped')).toMatchObject({ inFlight: 1, finished: 0, handedBack: 1 });
      const [event] = await eventRows(db, 'hang');
      expect(event).toMatchObject({ delivered: false, error: false, tries: 0, locked: null, locked_by: null });
      expect(await invocationRows(db, 'hang')).toEqual([]);

      hook.delayMs = 0;
      await engine();
      await until('delivered after the restart', async () => (await eventRows(db, 'hang'))[0].delivered || undefined, 20_000);
      // The webhook saw the cut call, but answered (delivered) only the second.
      expect(hook.received).toEqual([event.id, event.id]);
      expect(hook.answered).toEqual([event.id]);
      expect(await invocationRows(db, 'hang')).toHaveLength(1);
    } finally {
      await Promise.all(engines.splice(0).map((e) => e.stop()));
      await hook.close();
    }
  });

  it('lets an asynchronous action call in flight end and records its output', { timeout: 60_000 }, async () => {
    const handler = await new ActionHandler({ '/work': () => ({ body: { greeting: 'done' }, delayMs: 1_500 }) }).start();
    try {
      const first = await engine({ SERVICE_GRAPHQL_ASYNC_ACTIONS_FETCH_INTERVAL: '100' });
      expect((await first.metadata({ type: 'set_custom_types', args: { objects: [{ name: 'Done', fields: [{ name: 'greeting', type: 'String!' }] }] } })).status).toBe(200);
      const created = await first.metadata({ type: 'create_action', args: { name: 'work', definition: { kind: 'asynchronous', handler: handler.url('/work'), output_type: 'Done!', arguments: [] } } });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      const id = (await graphql(first, 'mutation { work }')).body.data.work as string;
      await until('the call made', () => handler.callsTo('/work').length === 1 || undefined);
      first.process.kill('SIGTERM');
      expect(await exited(first)).toBe(0);
      expect(phases(first).find((p) => p.message === 'shutdown: deliveries stopped')).toMatchObject({ inFlight: 1, finished: 1, handedBack: 0 });
      const second = await engine();
      const r = await graphql(second, `{ work(id: "${id}") { output { greeting } errors } }`);
      expect(r.body).toEqual({ data: { work: { output: { greeting: 'done' }, errors: null } } });
      expect(handler.callsTo('/work')).toHaveLength(1);
    } finally {
      await Promise.all(engines.splice(0).map((e) => e.stop()));
      await handler.stop();
    }
  });

  it('exits at once at a second signal', async () => {
    const e = await engine({ SERVICE_GRAPHQL_GRACEFUL_SHUTDOWN_TIMEOUT: '60' });
    const answer = graphql(e, '{ slow_items(args: {seconds: 10}) { id } }').catch((err: unknown) => err);
    await until('the query running', async () => (await db.sql(`SELECT 1 FROM pg_stat_activity WHERE query LIKE '%slow_items%' AND state = 'active' AND pid <> pg_backend_pid()`)).rowCount! > 0 || undefined);
    e.process.kill('SIGTERM');
    await until('draining', () => phases(e).some((p) => p.message === 'shutdown: stopped accepting connections') || undefined);
    const second = Date.now();
    e.process.kill('SIGTERM');
    expect(await exited(e)).toBe(143);
    expect(Date.now() - second).toBeLessThan(2_000);
    expect(phases(e).at(-1)).toMatchObject({ message: 'shutdown: second signal, exiting at once', signal: 'SIGTERM' });
    expect(await answer).toBeInstanceOf(Error);
  });
});

describe('graceful shutdown with the embedded PostgreSQL', () => {
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'service-shutdown-'));
  });

  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
    await rm(relocationFolder(dataDir), { recursive: true, force: true });
  });

  it('answers the statement in flight, then stops the postgres it started', { timeout: 120_000 }, async () => {
    const e = await startEngine({ SERVICE_GRAPHQL_DATA_DIR: dataDir, HOME: process.env.HOME ?? '/tmp', SERVICE_GRAPHQL_GRACEFUL_SHUTDOWN_TIMEOUT: '20' });
    engines.push(e);
    const pid = Number(readFileSync(join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
    const answer = e.runSql('SELECT pg_sleep(1.5) AS slept');
    await new Promise((r) => setTimeout(r, 300));
    e.process.kill('SIGTERM');
    expect(await answer).toEqual({ status: 200, body: { result_type: 'TuplesOk', result: [['slept'], ['']] } });
    expect(await exited(e)).toBe(0);
    expect(phases(e).at(-1)?.message).toBe('shutdown: embedded PostgreSQL stopped');
    expect(() => process.kill(pid, 0)).toThrow();
  });
});
