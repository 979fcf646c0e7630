/**
 * Live and streaming queries on multiplexer actors, through the `graphql-ws`
 * client library against a running engine: a multiplexer that goes down (restarted through the
 * developer API, which ends its thread as a crash would) comes back with every subscriber, none
 * of them gets a result twice or a streamed row again, and updates go on over the same sockets;
 * subscribers are spread over several actors; a client that goes away leaves no cohort. Also
 * `SERVICE_GRAPHQL_ENABLED_APIS`: the developer API is admin only, and an API left out answers 404.
 */
import type { Client } from 'graphql-ws';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useEngine } from '../support/fixture.js';
import { replaceTables } from '../support/graphql.js';
import { connect as connectClient, liveQueryCounts, logged, sleep, subscribe, type LiveQueryCounts, type Results } from '../support/graphql-ws.js';
import { startEngine } from '../support/engine.js';

const INTERVAL_MS = 100;
const fx = useEngine({
  SERVICE_GRAPHQL_LIVE_QUERIES_MULTIPLEXED_REFETCH_INTERVAL: String(INTERVAL_MS),
  SERVICE_GRAPHQL_ENABLED_APIS: 'metadata,graphql,developer',
  SERVICE_GRAPHQL_LIVE_QUERIES_MULTIPLEXERS: '2',
});
const admin = {};

beforeAll(async () => {
  await fx.db.sql(`CREATE TABLE note (id serial PRIMARY KEY, owner text NOT NULL, title text NOT NULL);
    INSERT INTO note (id, owner, title) VALUES (1, 'u1', 'a'), (2, 'u2', 'b'), (3, 'u1', 'c');`);
  await replaceTables(
    fx.engine,
    [{ table: { schema: 'public', name: 'note' }, select_permissions: [{ role: 'user', permission: { columns: ['id', 'title'], filter: { owner: { _eq: 'X-Service-User-Id' } }, allow_aggregations: true } }] }],
    {},
  );
});

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.dispose()));
  await fx.db.sql(`DELETE FROM note WHERE id > 3`);
});

const connect = (headers: Record<string, string>): Client => connectClient(fx.engine, clients, headers);
const user = (id: string) => ({ 'x-service-role': 'user', 'x-service-user-id': id });

async function devSubscriptions(headers: Record<string, string> = admin): Promise<{ status: number; body: any }> {
  const r = await fetch(`${fx.engine.url}/dev/subscriptions`, { headers });
  return { status: r.status, body: await r.json() };
}

/** Waits until the multiplexers report `expected` in all (a restarted one answers once it is given its subscribers). */
async function until(expected: LiveQueryCounts): Promise<void> {
  let last: LiveQueryCounts | null = null;
  for (let i = 0; i < 100; i++) {
    try {
      last = await liveQueryCounts(fx.engine);
      if (JSON.stringify(last) === JSON.stringify(expected)) return;
    } catch {
      // A multiplexer restarting answers 503 for a moment.
    }
    await sleep(50);
  }
  expect(last).toEqual(expected);
}

async function expectNothing(s: Results): Promise<void> {
  await expect(s.next(5 * INTERVAL_MS)).rejects.toThrow('no result');
}

const NOTES = 'subscription { note(order_by: {id: asc}) { id title } }';
const COUNT = 'subscription { note_aggregate { aggregate { count } } }';
const STREAM = 'subscription { note_stream(batch_size: 10, cursor: {initial_value: {id: 0}}) { id title } }';

describe('multiplexer actors', () => {
  it('keeps every subscriber across a multiplexer restart, sends nothing twice, and goes on pushing', async () => {
    const live = subscribe(connect(user('u1')), NOTES);
    const other = subscribe(connect(user('u2')), NOTES);
    const count = subscribe(connect(user('u1')), COUNT);
    const stream = subscribe(connect(user('u1')), STREAM);
    expect(await live.next()).toEqual({ data: { note: [{ id: 1, title: 'a' }, { id: 3, title: 'c' }] } });
    expect(await other.next()).toEqual({ data: { note: [{ id: 2, title: 'b' }] } });
    expect(await count.next()).toEqual({ data: { note_aggregate: { aggregate: { count: 2 } } } });
    expect(await stream.next()).toEqual({ data: { note_stream: [{ id: 1, title: 'a' }, { id: 3, title: 'c' }] } });
    await until({ queries: 3, cohorts: 4, subscribers: 4 });

    const from = fx.engine.logs.length;
    const restart = await fetch(`${fx.engine.url}/dev/subscriptions/restart`, { method: 'POST', headers: admin, body: '{}' });
    expect(restart.status).toBe(200);
    await until({ queries: 3, cohorts: 4, subscribers: 4 });
    expect(logged(fx.engine, 'multiplexer restarted; its subscribers were given to it again', from).length).toBeGreaterThan(0);
    // Their results did not change: nothing is sent again, and the stream does not send its rows again.
    await Promise.all([live, other, count, stream].map(expectNothing));

    await fx.db.sql(`INSERT INTO note (id, owner, title) VALUES (10, 'u1', 'd')`);
    expect(await live.next()).toEqual({ data: { note: [{ id: 1, title: 'a' }, { id: 3, title: 'c' }, { id: 10, title: 'd' }] } });
    expect(await count.next()).toEqual({ data: { note_aggregate: { aggregate: { count: 3 } } } });
    expect(await stream.next()).toEqual({ data: { note_stream: [{ id: 10, title: 'd' }] } });
    await expectNothing(other);
  });

  it('takes new subscribers while a multiplexer restarts, and serves them once it is back', async () => {
    const restarting = fetch(`${fx.engine.url}/dev/subscriptions/restart`, { method: 'POST', headers: admin, body: '{}' });
    const s = subscribe(connect(user('u2')), NOTES);
    await restarting;
    expect(await s.next()).toEqual({ data: { note: [{ id: 2, title: 'b' }] } });
    await fx.db.sql(`INSERT INTO note (id, owner, title) VALUES (11, 'u2', 'e')`);
    expect(await s.next()).toEqual({ data: { note: [{ id: 2, title: 'b' }, { id: 11, title: 'e' }] } });
  });

  it('removes the subscribers of a client that goes away, and stops their empty cohorts', async () => {
    const c = connect(user('u1'));
    const a = subscribe(c, NOTES);
    const b = subscribe(c, COUNT);
    await a.next();
    await b.next();
    await until({ queries: 2, cohorts: 2, subscribers: 2 });
    await c.dispose();
    await until({ queries: 0, cohorts: 0, subscribers: 0 });
  });

  it('serves the developer API to the admin only', async () => {
    expect((await devSubscriptions({ 'x-service-role': 'user' })).status).toBe(400);
    const r = await devSubscriptions();
    expect(r.status).toBe(200);
    expect(r.body.multiplexers).toHaveLength(2);
  });
});

describe('SERVICE_GRAPHQL_ENABLED_APIS', () => {
  it('answers 404 for the APIs left out, and refuses an unknown one at boot', async () => {
    const engine = await startEngine({ SERVICE_GRAPHQL_DATABASE_URL: fx.db.url, SERVICE_GRAPHQL_ENABLED_APIS: 'graphql' });
    try {
      expect((await engine.metadata({ type: 'export_metadata', args: {} })).status).toBe(404);
      expect((await fetch(`${engine.url}/dev/subscriptions`)).status).toBe(404);
      expect((await engine.post('/v1/graphql', { query: '{ __typename }' })).body).toEqual({ data: { __typename: 'query_root' } });
    } finally {
      await engine.stop();
    }
    await expect(startEngine({ SERVICE_GRAPHQL_DATABASE_URL: fx.db.url, SERVICE_GRAPHQL_ENABLED_APIS: 'graphql,nope' })).rejects.toThrow(/unknown API .{0,2}"nope/);
  });
});
