/**
 * `websocket-log` lines of WebSocket operations (docs/operations.md "Logs"), in the well-known
 * engine's shape: one line when an operation starts, one when it completes, is stopped by the
 * client or fails, on both protocols; each with the connection's id, the operation's id, name and
 * own request id, and the session variables (never the admin secret). The request itself is
 * written only when `query-log` is on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../support/db.js';
import { startEngine, type Engine } from '../support/engine.js';
import { until } from '../support/events.js';
import { connectWs, nextOf, type WsClient } from '../support/ws-client.js';

const SECRET = 'ws-log-admin-secret';
const SESSION = { 'x-service-admin-secret': SECRET, 'x-service-user-id': '7' };
const USER_VARS = { 'x-service-role': 'admin', 'x-service-user-id': '7' };

let db: TestDatabase;
let engine: Engine;
let withQueries: Engine;
const sockets: WsClient[] = [];

/** The operation lines of `engine` for this operation id, in order. */
const operationLines = (e: Engine, operationId: string) =>
  e.logs
    .map((l) => JSON.parse(l) as { level: string; type: string; detail: any })
    .filter((l) => l.type === 'websocket-log' && l.detail.event?.type === 'operation' && l.detail.event.detail.operation_id === operationId);

const events = (e: Engine, operationId: string) => operationLines(e, operationId).map((l) => l.detail.event.detail.operation_type.type);

async function open(e: Engine, protocol: 'graphql-transport-ws' | 'graphql-ws', init = true): Promise<WsClient> {
  const ws = await connectWs(e.url.replace('http', 'ws') + '/v1/graphql', protocol);
  sockets.push(ws);
  if (!init) return ws;
  ws.send({ type: 'connection_init', payload: { headers: SESSION } });
  await nextOf(ws, 'connection_ack');
  return ws;
}

beforeAll(async () => {
  db = await freshDatabase();
  await db.sql(`CREATE TABLE note (id int PRIMARY KEY); INSERT INTO note VALUES (1)`);
  const common = { SERVICE_GRAPHQL_DATABASE_URL: db.url, SERVICE_GRAPHQL_ADMIN_SECRET: SECRET };
  // The default log types (websocket-log among them), and the same with query-log.
  [engine, withQueries] = await Promise.all([startEngine(common), startEngine({ ...common, SERVICE_GRAPHQL_ENABLED_LOG_TYPES: 'startup, websocket-log, query-log' })]);
  expect((await engine.metadata({ type: 'pg_track_table', args: { table: 'note' } }, { 'x-service-admin-secret': SECRET })).status).toBe(200);
  await withQueries.metadata({ type: 'reload_metadata', args: {} }, { 'x-service-admin-secret': SECRET });
});

afterAll(async () => {
  for (const ws of sockets) ws.close();
  await Promise.all([engine, withQueries].map((e) => e?.stop()));
  await db?.drop();
});

describe('websocket-log operation lines', () => {
  it('graphql-transport-ws: a query starts and completes, in lines sharing its request id and the connection id', async () => {
    const ws = await open(engine, 'graphql-transport-ws');
    ws.send({ id: 'tq', type: 'subscribe', payload: { query: 'query Notes { note { id } }', operationName: 'Notes' } });
    expect((await nextOf(ws, 'next')).payload).toEqual({ data: { note: [{ id: 1 }] } });
    await nextOf(ws, 'complete');
    const lines = await until('the completed line', () => (events(engine, 'tq').length === 2 ? operationLines(engine, 'tq') : undefined));
    expect(lines.map((l) => [l.level, l.detail.event.detail.operation_type])).toEqual([
      ['info', { type: 'started' }],
      ['info', { type: 'completed' }],
    ]);
    const [started, completed] = lines.map((l) => l.detail);
    expect(started).toEqual({
      user_vars: USER_VARS,
      connection_info: { websocket_id: expect.stringMatching(/^[0-9a-f-]{36}$/), token_expiry: null, msg: null },
      event: { type: 'operation', detail: { request_id: expect.stringMatching(/^[0-9a-f-]{36}$/), operation_id: 'tq', operation_name: 'Notes', operation_type: { type: 'started' }, query: null } },
    });
    expect(completed.event.detail.request_id).toBe(started.event.detail.request_id);
    expect(completed.connection_info.websocket_id).toBe(started.connection_info.websocket_id);
  });

  it('graphql-transport-ws: a subscription the client completes is stopped; a request that does not validate fails at level error', async () => {
    const ws = await open(engine, 'graphql-transport-ws');
    ws.send({ id: 'ts', type: 'subscribe', payload: { query: 'subscription { note { id } }' } });
    await nextOf(ws, 'next');
    ws.send({ id: 'ts', type: 'complete' });
    expect(await until('the stopped line', () => (events(engine, 'ts').length === 2 ? events(engine, 'ts') : undefined))).toEqual(['started', 'stopped']);
    expect(operationLines(engine, 'ts')[1]!.detail.event.detail.operation_name).toBeNull();

    ws.send({ id: 'tbad', type: 'subscribe', payload: { query: '{ no_such_field }' } });
    await nextOf(ws, 'error');
    const failed = await until('the failure line', () => operationLines(engine, 'tbad')[1]);
    expect(failed.level).toBe('error');
    expect(failed.detail.event.detail.operation_type).toMatchObject({ type: 'query_err', detail: { message: expect.stringContaining('no_such_field'), extensions: { code: 'validation-failed' } } });
    // Two connections, two ids.
    expect(operationLines(engine, 'ts')[0]!.detail.connection_info.websocket_id).not.toBe(operationLines(engine, 'tq')[0]!.detail.connection_info.websocket_id);
  });

  it('graphql-ws (legacy): start, complete, stop, and a start before connection_init as a protocol error', async () => {
    const ws = await open(engine, 'graphql-ws');
    ws.send({ id: 'lq', type: 'start', payload: { query: '{ note { id } }' } });
    await nextOf(ws, 'data');
    await nextOf(ws, 'complete');
    ws.send({ id: 'ls', type: 'start', payload: { query: 'subscription Live { note { id } }', operationName: 'Live' } });
    await nextOf(ws, 'data');
    ws.send({ id: 'ls', type: 'stop' });
    expect(await until('the lines', () => (events(engine, 'ls').length === 2 && events(engine, 'lq').length === 2 ? [events(engine, 'lq'), events(engine, 'ls')] : undefined))).toEqual([
      ['started', 'completed'],
      ['started', 'stopped'],
    ]);
    expect(operationLines(engine, 'ls')[1]!.detail.event.detail.operation_name).toBe('Live');

    const early = await open(engine, 'graphql-ws', false);
    early.send({ id: 'learly', type: 'start', payload: { query: '{ note { id } }' } });
    await nextOf(early, 'error');
    const line = await until('the protocol error line', () => operationLines(engine, 'learly')[0]);
    expect(line.level).toBe('error');
    expect(line.detail.user_vars).toBeNull();
    expect(line.detail.event.detail.operation_type).toEqual({ type: 'proto_err', detail: 'start received before the connection is initialised' });
  });

  it('writes the request when query-log is on, and never the admin secret', async () => {
    const ws = await open(withQueries, 'graphql-transport-ws');
    const payload = { query: 'query One($id: Int!) { note(where: {id: {_eq: $id}}) { id } }', operationName: 'One', variables: { id: 1 } };
    ws.send({ id: 'wq', type: 'subscribe', payload });
    await nextOf(ws, 'next');
    const started = await until('the started line', () => operationLines(withQueries, 'wq')[0]);
    expect(started.detail.event.detail.query).toEqual(payload);
    // The operation's request id is the one its query-log line carries.
    const requestId = started.detail.event.detail.request_id;
    await until('its query-log line', () => withQueries.logs.find((l) => l.includes('"query-log"') && l.includes(requestId)));
    for (const e of [engine, withQueries]) expect(e.logs.filter((l) => l.includes('"websocket-log"') && l.includes(SECRET))).toEqual([]);
  });
});
