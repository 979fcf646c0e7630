import { beforeAll, describe, expect, it } from 'vitest';
import { useEngine } from '../support/fixture.js';
import { replaceTables } from '../support/graphql.js';
import { connectWs, nextOf, type WsClient } from '../support/ws-client.js';
import { bearer, inSeconds, serviceClaims, sign, signingKey } from '../auth/tokens.js';

const key = signingKey('HS256');
const fx = useEngine({
  SERVICE_GRAPHQL_LIVE_QUERIES_MULTIPLEXED_REFETCH_INTERVAL: '100',
  SERVICE_GRAPHQL_WEBSOCKET_KEEPALIVE: '60',
  SERVICE_GRAPHQL_ADMIN_SECRET: 'adm',
  SERVICE_GRAPHQL_JWT_SECRET: JSON.stringify({ type: 'HS256', key: key.configKey }),
});
const admin = { 'x-service-admin-secret': 'adm' };

beforeAll(async () => {
  await fx.db.sql(`CREATE TABLE item (id serial PRIMARY KEY, name text NOT NULL, owner text NOT NULL);
    INSERT INTO item (name, owner) VALUES ('a', 'u1'), ('b', 'u2');`);
  const exp = (await fx.engine.metadata({ type: 'export_metadata', args: {} }, { 'X-Service-Admin-Secret': 'adm' })).body;
  exp.sources[0].tables = [{ table: { schema: 'public', name: 'item' }, select_permissions: [{ role: 'user', permission: { columns: ['id', 'name'], filter: { owner: { _eq: 'X-Service-User-Id' } } } }] }];
  expect((await fx.engine.metadata({ type: 'replace_metadata', args: exp }, { 'X-Service-Admin-Secret': 'adm' })).status).toBe(200);
});
void replaceTables;

async function open(protocol: string, headers: Record<string, string>): Promise<WsClient> {
  const ws = await connectWs(fx.engine.url.replace('http', 'ws') + '/v1/graphql', protocol);
  ws.send({ type: 'connection_init', payload: { headers } });
  return ws;
}

describe('graphql-ws (legacy protocol)', () => {
  it('acknowledges, answers a query and completes it', async () => {
    const ws = await open('graphql-ws', admin);
    expect(ws.protocol).toBe('graphql-ws');
    expect(await nextOf(ws, 'connection_ack')).toEqual({ type: 'connection_ack' });
    ws.send({ id: '1', type: 'start', payload: { query: '{ item(order_by: {id: asc}) { name } }' } });
    expect(await nextOf(ws, 'data')).toEqual({ id: '1', type: 'data', payload: { data: { item: [{ name: 'a' }, { name: 'b' }] } } });
    expect(await nextOf(ws, 'complete')).toEqual({ id: '1', type: 'complete' });
    ws.close();
  });

  it('pushes a subscription result again when it changes, until stopped', async () => {
    const ws = await open('graphql-ws', { ...admin, 'x-service-role': 'user', 'x-service-user-id': 'u1' });
    await nextOf(ws, 'connection_ack');
    ws.send({ id: 's', type: 'start', payload: { query: 'subscription { item(order_by: {id: asc}) { name } }' } });
    expect((await nextOf(ws, 'data')).payload).toEqual({ data: { item: [{ name: 'a' }] } });
    await fx.db.sql(`INSERT INTO item (name, owner) VALUES ('c', 'u1'), ('d', 'u2')`);
    expect((await nextOf(ws, 'data')).payload).toEqual({ data: { item: [{ name: 'a' }, { name: 'c' }] } });
    ws.send({ id: 's', type: 'stop' });
    await fx.db.sql(`INSERT INTO item (name, owner) VALUES ('e', 'u1')`);
    // Several refetch intervals pass without a message.
    await expect(nextOf(ws, 'data', 700)).rejects.toThrow(/no message/);
    ws.close();
  });

  it('answers a request that does not compile with error and complete, and refuses a bad credential', async () => {
    const ws = await open('graphql-ws', admin);
    await nextOf(ws, 'connection_ack');
    ws.send({ id: '2', type: 'start', payload: { query: '{ nope { id } }' } });
    expect((await nextOf(ws, 'error')).payload.errors[0].message).toBe("field 'nope' not found in type: 'query_root'");
    expect(await nextOf(ws, 'complete')).toEqual({ id: '2', type: 'complete' });
    ws.close();
    const bad = await open('graphql-ws', { 'x-service-admin-secret': 'wrong' });
    expect((await nextOf(bad, 'connection_error')).type).toBe('connection_error');
    expect((await bad.next()).closed).toBe(4403);
  });
});

describe('authentication that takes time (JWT)', () => {
  it('takes a legacy start written right behind connection_init once the connection is acknowledged', async () => {
    const token = await sign(key, serviceClaims(['user'], 'user', { 'x-service-user-id': 'u1' }));
    const ws = await connectWs(fx.engine.url.replace('http', 'ws') + '/v1/graphql', 'graphql-ws');
    ws.send({ type: 'connection_init', payload: { headers: bearer(token) } });
    ws.send({ id: '1', type: 'start', payload: { query: '{ item_by_pk(id: 1) { name } }' } });
    expect(await nextOf(ws, 'connection_ack')).toEqual({ type: 'connection_ack' });
    expect(await nextOf(ws, 'data')).toEqual({ id: '1', type: 'data', payload: { data: { item_by_pk: { name: 'a' } } } });
    ws.close();
  });
});

describe('graphql-transport-ws', () => {
  it('subscribes with next/complete and answers pings', async () => {
    const ws = await open('graphql-transport-ws', admin);
    expect(ws.protocol).toBe('graphql-transport-ws');
    expect(await ws.next()).toEqual({ type: 'connection_ack' });
    ws.send({ type: 'ping' });
    expect(await ws.next()).toEqual({ type: 'pong' });
    ws.send({ id: 'q', type: 'subscribe', payload: { query: 'query { item_by_pk(id: 1) { name } }' } });
    expect(await ws.next()).toEqual({ id: 'q', type: 'next', payload: { data: { item_by_pk: { name: 'a' } } } });
    expect(await ws.next()).toEqual({ id: 'q', type: 'complete' });
    ws.close();
  });

  it('closes the connection when the token expires', async () => {
    const token = await sign(key, { ...serviceClaims(['user'], 'user', { 'x-service-user-id': 'u1' }), exp: inSeconds(2) });
    const ws = await open('graphql-transport-ws', bearer(token));
    expect(await ws.next()).toEqual({ type: 'connection_ack' });
    const closed = await ws.next(5000);
    expect(closed.closed).toBe(4401);
  });
});
