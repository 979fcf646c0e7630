/**
 * Limits that fit the route: a large metadata document goes through the admin routes (their own
 * body limit) and the metadata actor; a WebSocket client that does not read holds only the
 * newest result of each subscription, and is closed past the byte bound when what it does not
 * read must all arrive (query answers): the engine's memory never grows without bound.
 */
import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { useEngine } from '../support/fixture.js';
import { clientFrame } from '../support/ws-client.js';

const MIB = 1024 * 1024;
const fx = useEngine({ SERVICE_GRAPHQL_LIVE_QUERIES_MULTIPLEXED_REFETCH_INTERVAL: '50' });

beforeAll(async () => {
  await fx.db.sql(`CREATE TABLE blob (id serial PRIMARY KEY, body text NOT NULL);
    INSERT INTO blob (body) SELECT repeat('x', 1000) FROM generate_series(1, 1000);`);
  expect((await fx.engine.metadata({ type: 'pg_track_table', args: { table: 'blob' } })).status).toBe(200);
});

const rssBytes = (pid: number) => 1024 * Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);

/** A raw WebSocket that completes the upgrade, sends its messages, then never reads. */
function nonReadingClient(port: number, messages: unknown[]): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(
        [
          'GET /v1/graphql HTTP/1.1',
          `Host: 127.0.0.1:${port}`,
          'Connection: Upgrade',
          'Upgrade: websocket',
          `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
          'Sec-WebSocket-Version: 13',
          'Sec-WebSocket-Protocol: graphql-transport-ws',
          '',
          '',
        ].join('\r\n'),
      );
    });
    socket.on('error', reject);
    socket.once('data', (d: Buffer) => {
      if (!d.toString('latin1').startsWith('HTTP/1.1 101')) return reject(new Error(`upgrade refused: ${d.toString('latin1').split('\r\n')[0]}`));
      for (const m of messages) socket.write(clientFrame(0x1, Buffer.from(JSON.stringify(m))));
      socket.pause();
      resolve(socket);
    });
  });
}

describe('WebSocket backpressure', () => {
  const closedLog = () => fx.engine.logs.some((l) => l.includes('the client is not reading fast enough'));
  const until = (socket: Socket) =>
    new Promise<void>((resolve) => {
      socket.on('close', () => resolve());
      socket.on('error', () => resolve());
    });

  it('keeps only the newest live result for a client that does not read: the engine memory stays bounded', async () => {
    const pid = fx.engine.process.pid!;
    const query = 'subscription { blob(order_by: {id: asc}) { id body } }';
    const before = rssBytes(pid);
    const subscriptions = Array.from({ length: 4 }, (_, i) => ({ id: String(i), type: 'subscribe', payload: { query } }));
    const socket = await nonReadingClient(fx.engine.port, [{ type: 'connection_init', payload: {} }, ...subscriptions]);
    // Every refetch finds a change: each of the 4 subscriptions has ~1 MiB more to send.
    let peak = before;
    for (let changes = 0; changes < 150; changes++) {
      await fx.db.sql(`UPDATE blob SET body = repeat(chr(97 + ${changes % 26}), 1000) WHERE id = 1`);
      peak = Math.max(peak, rssBytes(pid));
      await new Promise((r) => setTimeout(r, 60));
    }
    // 600 MiB of results were due; the connection holds one per subscription (and what the socket took).
    // Each result is made on the multiplexer actor's thread and sent on from the front thread's:
    // both heaps hold the garbage of the ~1 MiB results until their next full collection
    // (80 MiB of growth when one thread did both, 115 to 145 MiB since).
    console.log(`RSS before ${(before / MIB).toFixed(0)} MiB, peak ${(peak / MIB).toFixed(0)} MiB, after ${(rssBytes(pid) / MIB).toFixed(0)} MiB`);
    expect(peak - before).toBeLessThan(180 * MIB);
    expect(closedLog()).toBe(false);
    const ended = until(socket);
    socket.destroy();
    await ended;
  }, 60_000);

  it('closes a client that does not read the answers it asks for, past the byte bound', async () => {
    const pid = fx.engine.process.pid!;
    const before = rssBytes(pid);
    // 60 queries of ~1 MiB each, none of them read: more than the 16 MiB bound and the kernel's buffers.
    const queries = Array.from({ length: 60 }, (_, i) => ({ id: `q${i}`, type: 'subscribe', payload: { query: '{ blob(order_by: {id: asc}) { id body } }' } }));
    const socket = await nonReadingClient(fx.engine.port, [{ type: 'connection_init', payload: {} }, ...queries]);
    let peak = before;
    for (let i = 0; i < 300 && !closedLog(); i++) {
      peak = Math.max(peak, rssBytes(pid));
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(closedLog()).toBe(true);
    // Reading now, the client finds the end of the stream: the server closed the socket.
    const ended = until(socket);
    socket.resume();
    await ended;
    expect(peak - before).toBeLessThan(120 * MIB);
  }, 60_000);
});

describe('body limits', () => {
  it('accepts a 40 MiB replace_metadata on the admin route and refuses 11 MiB on /v1/graphql', async () => {
    const exp = (await fx.engine.metadata({ type: 'export_metadata', args: {} })).body;
    // 40 roles, each with a select permission whose comment is 1 MiB: a legitimate, large document.
    const comment = 'c'.repeat(MIB);
    const roles = Array.from({ length: 41 }, (_, i) => `role_${i}`);
    exp.sources[0].tables = [{ table: { schema: 'public', name: 'blob' }, select_permissions: roles.map((role) => ({ role, comment, permission: { columns: ['id'], filter: {} } })) }];
    const body = JSON.stringify({ type: 'replace_metadata', args: exp });
    expect(body.length).toBeGreaterThan(40 * MIB);
    const replaced = await fx.engine.post('/v1/metadata', body);
    expect(replaced).toEqual({ status: 200, body: { message: 'success' } });
    const back = (await fx.engine.metadata({ type: 'export_metadata', args: {} })).body;
    const stored = back.sources[0].tables[0].select_permissions.map((p: { role: string; comment: string }) => `${p.role}:${p.comment.length}`);
    expect(stored.sort()).toEqual(roles.map((r) => `${r}:${MIB}`).sort());
    const asRole = await fx.engine.post('/v1/graphql', { query: '{ blob(limit: 1, order_by: {id: asc}) { id } }' }, { 'x-service-role': 'role_40' });
    expect(asRole.body).toEqual({ data: { blob: [{ id: 1 }] } });

    const tooBig = await fx.engine.post('/v1/graphql', { query: '{ blob { id } }', variables: { pad: 'p'.repeat(11 * MIB) } });
    expect(tooBig).toEqual({ status: 413, body: { errors: [{ message: `request body is larger than the limit of ${10 * MIB} bytes`, extensions: { path: '$', code: 'bad-request' } }] } });
  }, 60_000);
});
