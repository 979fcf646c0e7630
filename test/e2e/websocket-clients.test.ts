/**
 * Both WebSocket sub-protocols as users meet them: the `graphql-ws` library's client for
 * `graphql-transport-ws`, `subscriptions-transport-ws`'s client for the legacy `graphql-ws`,
 * and a raw client for what those libraries never send (unknown messages, a client that stops
 * reading; a second init: websocket-reinit.test.ts). Choices: docs/behaviour.md "WebSocket protocols".
 */
import { createClient, type Client, type ClientOptions } from 'graphql-ws';
import { SubscriptionClient } from 'subscriptions-transport-ws';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { useEngine } from '../support/fixture.js';
import { connectWs, nextOf, type WsClient } from '../support/ws-client.js';

const fx = useEngine({
  SERVICE_GRAPHQL_ADMIN_SECRET: 'adm',
  SERVICE_GRAPHQL_LIVE_QUERIES_MULTIPLEXED_REFETCH_INTERVAL: '100',
  SERVICE_GRAPHQL_WEBSOCKET_KEEPALIVE: '1',
  SERVICE_GRAPHQL_WEBSOCKET_CONNECTION_INIT_TIMEOUT: '1',
  SERVICE_GRAPHQL_WEBSOCKET_MAX_BUFFERED: String(4 * 1024 * 1024),
});
const admin = { 'x-service-admin-secret': 'adm' };
const url = () => fx.engine.url.replace('http', 'ws') + '/v1/graphql';

beforeAll(async () => {
  await fx.db.sql(`CREATE TABLE item (id serial PRIMARY KEY, name text NOT NULL);
    INSERT INTO item (name) VALUES ('a'), ('b');
    CREATE TABLE big (id int PRIMARY KEY, n int NOT NULL, pad text NOT NULL);
    INSERT INTO big VALUES (1, 0, repeat('x', 1000000));`);
  for (const table of ['item', 'big']) expect((await fx.engine.metadata({ type: 'pg_track_table', args: { table } }, { 'X-Service-Admin-Secret': 'adm' })).status).toBe(200);
});

/** Every client a test opened, closed after it. */
const opened: (() => void)[] = [];
afterEach(() => {
  for (const close of opened.splice(0)) close();
});

interface Closed {
  code: number;
  reason: string;
}

function transportClient(options: Partial<ClientOptions> = {}): { client: Client; closed: Promise<Closed> } {
  let onClosed!: (e: Closed) => void;
  const closed = new Promise<Closed>((resolve) => (onClosed = resolve));
  const client = createClient({
    url: url(),
    webSocketImpl: WebSocket,
    retryAttempts: 0,
    lazy: false,
    onNonLazyError: () => {},
    connectionParams: { headers: admin },
    ...options,
    on: { closed: (e) => onClosed({ code: (e as Closed).code, reason: String((e as Closed).reason) }), ...options.on },
  });
  opened.push(() => void client.dispose());
  return { client, closed };
}

/** An operation's last result (a query's only one). */
function run(client: Client, query: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    let last: unknown;
    client.subscribe({ query }, { next: (v) => (last = v), error: reject, complete: () => resolve(last) });
  });
}

async function raw(protocol: string, init = true): Promise<WsClient> {
  const ws = await connectWs(url(), protocol);
  opened.push(() => ws.close());
  if (init) {
    ws.send({ type: 'connection_init', payload: { headers: admin } });
    expect(await nextOf(ws, 'connection_ack')).toEqual({ type: 'connection_ack' });
  }
  return ws;
}

describe('graphql-transport-ws with the graphql-ws client', () => {
  it('runs a query, a mutation, and a subscription that follows changes until completed', async () => {
    const { client } = transportClient();
    expect(await run(client, '{ item(order_by: {id: asc}) { name } }')).toEqual({ data: { item: [{ name: 'a' }, { name: 'b' }] } });
    const updates = client.iterate({ query: 'subscription { item(order_by: {id: asc}) { name } }' });
    expect((await updates.next()).value).toEqual({ data: { item: [{ name: 'a' }, { name: 'b' }] } });
    expect(await run(client, 'mutation { insert_item_one(object: {name: "c"}) { name } }')).toEqual({ data: { insert_item_one: { name: 'c' } } });
    expect((await updates.next()).value).toEqual({ data: { item: [{ name: 'a' }, { name: 'b' }, { name: 'c' }] } });
    await updates.return!();
    await fx.db.sql(`DELETE FROM item WHERE name = 'c'`);
  });

  it('reports a request that does not compile as an error of that operation only', async () => {
    const { client } = transportClient();
    await expect(run(client, '{ nope }')).rejects.toEqual([{ message: "field 'nope' not found in type: 'query_root'", extensions: { path: '$.selectionSet.nope', code: 'validation-failed' } }]);
    expect(await run(client, '{ item_by_pk(id: 1) { name } }')).toEqual({ data: { item_by_pk: { name: 'a' } } });
  });

  it('pings every keep-alive interval once acknowledged, and the client answers', async () => {
    const pings: unknown[] = [];
    const { client } = transportClient({ on: { ping: (received, payload) => void (received && pings.push(payload)) } });
    await new Promise((r) => setTimeout(r, 2600));
    expect(pings.length).toBeGreaterThanOrEqual(2);
    expect(pings[0]).toEqual({ message: 'keepalive' });
    expect(await run(client, '{ item_by_pk(id: 2) { name } }')).toEqual({ data: { item_by_pk: { name: 'b' } } });
  });

  it('closes with 4408 when connection_init does not come in time', async () => {
    const started = Date.now();
    const { closed } = transportClient({ connectionParams: () => new Promise(() => {}) });
    expect(await closed).toEqual({ code: 4408, reason: 'Connection initialisation timeout' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });

  it('closes with 4403 when connection_init carries a refused credential', async () => {
    const { client, closed } = transportClient({ connectionParams: { headers: { 'x-service-admin-secret': 'wrong' } } });
    const refused = run(client, '{ item { name } }');
    expect(await closed).toEqual({ code: 4403, reason: 'invalid x-service-admin-secret/x-service-access-key' });
    await expect(refused).rejects.toMatchObject({ code: 4403 });
  });

  it('closes with 4409 when a subscriber id is already in use', async () => {
    const { client, closed } = transportClient({ generateID: () => 'same' });
    const query = 'subscription { item_by_pk(id: 1) { name } }';
    client.subscribe({ query }, { next: () => {}, error: () => {}, complete: () => {} });
    client.subscribe({ query }, { next: () => {}, error: () => {}, complete: () => {} });
    expect(await closed).toEqual({ code: 4409, reason: 'Subscriber for same already exists' });
  });

  it('closes with 4400 on an invalid message', async () => {
    const invalid = await raw('graphql-transport-ws');
    invalid.send({ type: 'start', id: '1', payload: { query: '{ item { name } }' } });
    expect(await nextOf(invalid, 'none')).toEqual({ closed: 4400, reason: 'unexpected message type "start"' });
    // A close frame holds 123 bytes of reason.
    const long = await raw('graphql-transport-ws');
    long.send({ type: 'é'.repeat(100) });
    expect(await nextOf(long, 'none')).toEqual({ closed: 4400, reason: `unexpected message type "${'é'.repeat(47)}...` });
  });
});

describe('validation errors of a subscription, on both protocols', () => {
  const twoRoots = 'subscription { item { name } __typename }';
  const selectionError = { message: "field 'nope' not found in type: 'item'", extensions: { path: '$.selectionSet.item.selectionSet.nope', code: 'validation-failed' } };
  const rootsError = { message: 'subscriptions must select one top level field', extensions: { path: '$', code: 'validation-failed' } };

  it('graphql-transport-ws: more than one root field at $, after the fields are valid; a field error at its selection', async () => {
    const { client } = transportClient();
    await expect(run(client, twoRoots)).rejects.toEqual([rootsError]);
    await expect(run(client, 'subscription Named { a: item { name } b: item { name } }')).rejects.toEqual([rootsError]);
    await expect(run(client, 'subscription { item { nope } __typename }')).rejects.toEqual([selectionError]);
  });

  it('graphql-ws (legacy): the same errors, then complete', async () => {
    const ws = await raw('graphql-ws');
    ws.send({ id: '1', type: 'start', payload: { query: twoRoots } });
    expect(await nextOf(ws, 'error')).toEqual({ id: '1', type: 'error', payload: { errors: [rootsError] } });
    expect(await nextOf(ws, 'complete')).toEqual({ id: '1', type: 'complete' });
    ws.send({ id: '2', type: 'start', payload: { query: 'subscription { item { nope } __typename }' } });
    expect(await nextOf(ws, 'error')).toEqual({ id: '2', type: 'error', payload: { errors: [selectionError] } });
  });

  it('over HTTP, the same error', async () => {
    expect((await fx.engine.post('/v1/graphql', { query: twoRoots }, admin)).body).toEqual({ errors: [rootsError] });
  });
});

describe('sub-protocol', () => {
  it('is graphql-transport-ws when offered, else the legacy one, named only when offered', async () => {
    const both = await raw('graphql-ws, graphql-transport-ws', false);
    expect(both.protocol).toBe('graphql-transport-ws');
    const other = await raw('mqtt', false);
    expect(other.protocol).toBeUndefined();
    other.send({ type: 'connection_init', payload: { headers: admin } });
    expect(await other.next()).toEqual({ type: 'connection_ack' });
    expect(await other.next()).toEqual({ type: 'ka' });
  });
});

describe('graphql-ws (legacy) with the subscriptions-transport-ws client', () => {
  function legacyClient(headers: Record<string, string>): { client: SubscriptionClient; connection: Promise<unknown>; closed: Promise<number> } {
    let connected!: (error: unknown) => void;
    const connection = new Promise((resolve) => (connected = resolve));
    const client = new SubscriptionClient(url(), { connectionParams: { headers }, reconnect: false, connectionCallback: (error) => connected(error ?? null) }, WebSocket);
    const closed = new Promise<number>((resolve) => (client as unknown as { client: WebSocket }).client.addEventListener('close', (e) => resolve(e.code)));
    opened.push(() => client.close());
    return { client, connection, closed };
  }

  function values(client: SubscriptionClient, query: string, count: number): Promise<unknown[]> {
    return new Promise((resolve, reject) => {
      const seen: unknown[] = [];
      const sub = client.request({ query }).subscribe({
        next: (v) => {
          seen.push(v);
          if (seen.length === count) {
            sub.unsubscribe();
            resolve(seen);
          }
        },
        error: reject,
        complete: () => resolve(seen),
      });
    });
  }

  it('runs a query, and a subscription that follows changes', async () => {
    const { client, connection } = legacyClient(admin);
    // Sent right behind connection_init, before the acknowledgement.
    const early = values(client, '{ item(order_by: {id: asc}) { name } }', 1);
    expect(await connection).toBeNull();
    expect(await early).toEqual([{ data: { item: [{ name: 'a' }, { name: 'b' }] } }]);
    const updates = values(client, 'subscription { item(where: {name: {_like: "legacy%"}}) { name } }', 2);
    await new Promise((r) => setTimeout(r, 300));
    await fx.db.sql(`INSERT INTO item (name) VALUES ('legacy 1')`);
    expect(await updates).toEqual([{ data: { item: [] } }, { data: { item: [{ name: 'legacy 1' }] } }]);
    await fx.db.sql(`DELETE FROM item WHERE name = 'legacy 1'`);
  });

  it('refuses a bad credential with connection_error, then closes with 4403', async () => {
    const { connection, closed } = legacyClient({ 'x-service-admin-secret': 'wrong' });
    expect(await connection).toEqual({ message: 'invalid x-service-admin-secret/x-service-access-key', extensions: { path: '$', code: 'access-denied' } });
    expect(await closed).toBe(4403);
  });

  it('answers an unknown message with connection_error and keeps the connection', async () => {
    const ws = await raw('graphql-ws');
    ws.send({ type: 'subscribe', id: '1', payload: { query: '{ item_by_pk(id: 1) { name } }' } });
    expect(await nextOf(ws, 'connection_error')).toEqual({ type: 'connection_error', payload: { message: 'unexpected message type "subscribe"', extensions: { path: '$', code: 'parse-failed' } } });
    ws.send({ type: 'start', id: '1', payload: { query: '{ item_by_pk(id: 1) { name } }' } });
    expect(await nextOf(ws, 'data')).toEqual({ id: '1', type: 'data', payload: { data: { item_by_pk: { name: 'a' } } } });
    expect(await nextOf(ws, 'complete')).toEqual({ id: '1', type: 'complete' });
  });

  it('sends ka at the acknowledgement and every keep-alive interval', async () => {
    const ws = await raw('graphql-ws');
    const kas: unknown[] = [];
    const until = Date.now() + 2600;
    while (Date.now() < until) kas.push(await ws.next(2000));
    expect(kas.length).toBeGreaterThanOrEqual(3);
    expect(new Set(kas.map((m) => JSON.stringify(m)))).toEqual(new Set(['{"type":"ka"}']));
  });

  it('closes with 4408 when connection_init does not come in time', async () => {
    const ws = await raw('graphql-ws', false);
    expect(await ws.next(3000)).toEqual({ closed: 4408, reason: 'Connection initialisation timeout' });
  });
});

describe('a client that stops reading', () => {
  it('gets the newest live result when it reads again, not the backlog', async () => {
    const ws = await raw('graphql-transport-ws');
    ws.send({ id: 's', type: 'subscribe', payload: { query: 'subscription { big_by_pk(id: 1) { n pad } }' } });
    ws.pause();
    // 40 results of 1 MB: far more than the socket buffers and the 4 MiB bound.
    for (let n = 1; n <= 40; n++) {
      await fx.db.sql(`UPDATE big SET n = ${n}`);
      await new Promise((r) => setTimeout(r, 120));
    }
    ws.resume();
    const seen: number[] = [];
    while (seen.at(-1) !== 40) seen.push((await nextOf(ws, 'next', 10_000)).payload.data.big_by_pk.n);
    // What the socket held when the client stopped, then the newest.
    expect(seen.length).toBeLessThan(25);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    await expect(nextOf(ws, 'next', 500)).rejects.toThrow(/no message/);
  }, 30_000);

  it('is closed with 1008 once the answers it does not read pass the byte bound', async () => {
    const ws = await raw('graphql-transport-ws');
    ws.pause();
    // Query results must all arrive, so they are not merged: 20 of 1 MB pass the 4 MiB bound.
    for (let i = 0; i < 20; i++) ws.send({ id: `q${i}`, type: 'subscribe', payload: { query: '{ big_by_pk(id: 1) { pad } }' } });
    const closedLog = () => fx.engine.logs.some((l) => l.includes('the client is not reading fast enough'));
    for (let i = 0; i < 200 && !closedLog(); i++) await new Promise((r) => setTimeout(r, 50));
    expect(closedLog()).toBe(true);
    // It has 16 s to read what was queued before the close frame (docs/behaviour.md): it still gets the 1008.
    await new Promise((r) => setTimeout(r, 6000));
    ws.resume();
    let results = 0;
    for (;;) {
      const m = await ws.next(10_000);
      if (m.closed) {
        expect(m).toEqual({ closed: 1008, reason: 'client is not reading fast enough' });
        break;
      }
      if (m.type === 'next') results++;
    }
    expect(results).toBeLessThan(20);
  }, 30_000);
});
