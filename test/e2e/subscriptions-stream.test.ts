/**
 * Streaming subscriptions through the `graphql-ws` client library against a
 * running engine: `<table>_stream(batch_size, cursor, where)` sends the rows after the
 * cursor in batches, in the cursor's order, then only rows added later, never one twice;
 * `where` and the role's filter per subscriber, the permission's `limit` caps a batch,
 * subscribers with different cursors share one multiplexed statement, and the field exists
 * only for roles whose select permission allows streaming.
 */
import type { Client } from 'graphql-ws';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useEngine } from '../support/fixture.js';
import { gql, replaceTables } from '../support/graphql.js';
import { connect as connectClient, logged, sleep, subscribe, type Results } from '../support/graphql-ws.js';

const INTERVAL_MS = 100;
const fx = useEngine({
  SERVICE_GRAPHQL_LIVE_QUERIES_MULTIPLEXED_REFETCH_INTERVAL: String(INTERVAL_MS),
  SERVICE_GRAPHQL_LOG_LEVEL: 'debug',
  // The multiplexers' `live query refetched` lines (one per statement run).
  SERVICE_GRAPHQL_ENABLED_LOG_TYPES: 'startup, livequery-poller-log',
});

beforeAll(async () => {
  await fx.db.sql(`CREATE TABLE event (id serial PRIMARY KEY, owner text NOT NULL, kind text NOT NULL, body text NOT NULL);
    INSERT INTO event (id, owner, kind, body) VALUES (1, 'u1', 'a', 'e1'), (2, 'u2', 'a', 'e2'), (3, 'u1', 'b', 'e3'), (4, 'u1', 'a', 'e4'), (5, 'u2', 'b', 'e5');
    CREATE TABLE reading (at timestamptz PRIMARY KEY, value numeric NOT NULL);
    INSERT INTO reading VALUES ('2024-01-01T00:00:00Z', 1.5), ('2024-01-02T00:00:00Z', 2.5), ('2024-01-03T00:00:00Z', 3.5);`);
  await replaceTables(fx.engine, [
    {
      table: { schema: 'public', name: 'event' },
      select_permissions: [
        { role: 'user', permission: { columns: ['id', 'kind', 'body'], filter: { owner: { _eq: 'X-Service-User-Id' } } } },
        { role: 'capped', permission: { columns: ['id', 'body'], filter: {}, limit: 2 } },
        { role: 'live_only', permission: { columns: ['id', 'body'], filter: {}, subscription_root_fields: ['select'] } },
      ],
    },
    { table: { schema: 'public', name: 'reading' }, configuration: { custom_root_fields: { select_stream: 'reading_feed' } } },
  ]);
});

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.dispose()));
  await fx.db.sql(`DELETE FROM event WHERE id > 5; DELETE FROM reading WHERE value > 3.5`);
});

const connect = (headers: Record<string, string> = {}): Client => connectClient(fx.engine, clients, headers);
const ids = (result: any): number[] => result.data.event_stream.map((r: any) => r.id);

/** Nothing more arrives within a few refetch intervals. */
async function expectNothing(s: Results): Promise<void> {
  await expect(s.next(5 * INTERVAL_MS)).rejects.toThrow('no result');
}

const STREAM = 'subscription ($size: Int!, $from: Int!, $order: cursor_ordering) { event_stream(batch_size: $size, cursor: {initial_value: {id: $from}, ordering: $order}) { id body } }';

describe('streaming subscriptions', () => {
  it('sends the rows after the cursor in ascending batches, then only new rows, each once', async () => {
    const s = subscribe(connect(), STREAM, { size: 2, from: 1, order: 'ASC' });
    expect(await s.next()).toEqual({ data: { event_stream: [{ id: 2, body: 'e2' }, { id: 3, body: 'e3' }] } });
    expect(ids(await s.next())).toEqual([4, 5]);
    // No new rows: nothing is sent.
    await expectNothing(s);
    await fx.db.sql(`INSERT INTO event (id, owner, kind, body) VALUES (6, 'u1', 'a', 'e6'), (7, 'u2', 'a', 'e7'), (8, 'u1', 'a', 'e8')`);
    expect(ids(await s.next())).toEqual([6, 7]);
    expect(ids(await s.next())).toEqual([8]);
    await expectNothing(s);
  });

  it('streams in descending order from the cursor, and rows added above it never come', async () => {
    const s = subscribe(connect(), 'subscription { event_stream(batch_size: 2, cursor: {initial_value: {id: 4}, ordering: DESC}) { id } }');
    expect(ids(await s.next())).toEqual([3, 2]);
    expect(ids(await s.next())).toEqual([1]);
    await fx.db.sql(`INSERT INTO event (id, owner, kind, body) VALUES (9, 'u1', 'a', 'e9')`);
    await expectNothing(s);
  });

  it('applies where and the role filter to each subscriber', async () => {
    const query = 'subscription { event_stream(batch_size: 10, cursor: {initial_value: {id: 0}}, where: {kind: {_eq: "a"}}) { id kind } }';
    const u1 = subscribe(connect({ 'x-service-role': 'user', 'x-service-user-id': 'u1' }), query);
    const u2 = subscribe(connect({ 'x-service-role': 'user', 'x-service-user-id': 'u2' }), query);
    expect(ids(await u1.next())).toEqual([1, 4]);
    expect(ids(await u2.next())).toEqual([2]);
    await fx.db.sql(`INSERT INTO event (id, owner, kind, body) VALUES (6, 'u2', 'a', 'e6'), (7, 'u1', 'b', 'e7'), (8, 'u1', 'a', 'e8')`);
    expect(await u1.next()).toEqual({ data: { event_stream: [{ id: 8, kind: 'a' }] } });
    expect(ids(await u2.next())).toEqual([6]);
    await expectNothing(u1);
  });

  it("caps each batch at the permission's limit", async () => {
    const s = subscribe(connect({ 'x-service-role': 'capped' }), 'subscription { event_stream(batch_size: 10, cursor: {initial_value: {id: 0}}) { id } }');
    expect(ids(await s.next())).toEqual([1, 2]);
    expect(ids(await s.next())).toEqual([3, 4]);
    expect(ids(await s.next())).toEqual([5]);
  });

  it('serves subscribers with different cursors from one statement per refetch', async () => {
    const a = subscribe(connect(), STREAM, { size: 1, from: 0, order: 'ASC' });
    const b = subscribe(connect(), STREAM, { size: 1, from: 3, order: 'ASC' });
    expect(ids(await a.next())).toEqual([1]);
    expect(ids(await b.next())).toEqual([4]);
    await sleep(2 * INTERVAL_MS);
    const from = fx.engine.logs.length;
    await sleep(3 * INTERVAL_MS);
    const cohorts = logged(fx.engine, 'live query refetched', from).map((l) => l.cohorts);
    expect(cohorts.length).toBeGreaterThan(0);
    expect(cohorts.every((n) => n === 2)).toBe(true);
    // Each went on from its own cursor, one row per batch.
    const seenA = [1];
    const seenB = [4];
    while (seenB.length < 2) seenB.push(...ids(await b.next()));
    while (seenA.length < 5) seenA.push(...ids(await a.next()));
    expect(seenA).toEqual([1, 2, 3, 4, 5]);
    expect(seenB).toEqual([4, 5]);
  });

  it('goes on from its cursor when a permission change plans it again', async () => {
    const s = subscribe(connect({ 'x-service-role': 'user', 'x-service-user-id': 'u1' }), 'subscription { event_stream(batch_size: 10, cursor: {initial_value: {id: 0}}) { id } }');
    expect(ids(await s.next())).toEqual([1, 3, 4]);
    const own = { owner: { _eq: 'X-Service-User-Id' } };
    const permission = (filter: unknown) => ({
      type: 'bulk',
      args: [
        { type: 'pg_drop_select_permission', args: { table: 'event', role: 'user' } },
        { type: 'pg_create_select_permission', args: { table: 'event', role: 'user', permission: { columns: ['id', 'kind', 'body'], filter } } },
      ],
    });
    expect((await fx.engine.metadata(permission({ _and: [own, { kind: { _neq: 'b' } }] }))).status).toBe(200);
    try {
      // Planned again, it does not start over from its initial value.
      await expectNothing(s);
      await fx.db.sql(`INSERT INTO event (id, owner, kind, body) VALUES (6, 'u1', 'b', 'e6'), (7, 'u1', 'a', 'e7')`);
      expect(ids(await s.next())).toEqual([7]);
    } finally {
      expect((await fx.engine.metadata(permission(own))).status).toBe(200);
    }
  });

  it('streams on a timestamp cursor under its custom root field name', async () => {
    const s = subscribe(connect(), 'subscription { reading_feed(batch_size: 2, cursor: {initial_value: {at: "2024-01-01T00:00:00Z"}}) { at value } }');
    expect(await s.next()).toEqual({ data: { reading_feed: [{ at: '2024-01-02T00:00:00+00:00', value: 2.5 }, { at: '2024-01-03T00:00:00+00:00', value: 3.5 }] } });
    await fx.db.sql(`INSERT INTO reading VALUES ('2024-01-03T00:00:00.5Z', 4)`);
    expect(await s.next()).toEqual({ data: { reading_feed: [{ at: '2024-01-03T00:00:00.5+00:00', value: 4 }] } });
  });

  it('refuses cursors it cannot stream from, as the well-known engine words it', async () => {
    const refused = async (cursor: string) => (await subscribe(connect(), `subscription { event_stream(batch_size: 1, cursor: ${cursor}) { id } }`).next()).failed?.[0] ?? null;
    expect(await refused('[{initial_value: {id: 0}}, {initial_value: {id: 1}}]')).toMatchObject({
      message: 'multiple column cursors are not supported yet',
      extensions: { path: '$.selectionSet.event_stream.args.cursor', code: 'validation-failed' },
    });
    expect(await refused('{initial_value: {id: 0, body: "x"}}')).toMatchObject({ message: 'one streaming column field is expected' });
    expect(await refused('{initial_value: {}}')).toMatchObject({ message: 'one streaming column field is expected' });
    expect(await refused('[]')).toMatchObject({ message: 'one cursor input is expected' });
  });

  it('exists only for roles whose select permission allows streaming', async () => {
    const fields = async (role: string) => {
      const r = await gql(fx.engine, '{ __schema { subscriptionType { fields { name } } } }', undefined, role === 'admin' ? {} : { 'x-service-role': role });
      return r.data.__schema.subscriptionType.fields.map((f: any) => f.name);
    };
    expect(await fields('admin')).toContain('event_stream');
    expect(await fields('user')).toContain('event_stream');
    expect(await fields('live_only')).toEqual(['event']);
    const s = subscribe(connect({ 'x-service-role': 'live_only' }), 'subscription { event_stream(batch_size: 1, cursor: {initial_value: {id: 0}}) { id } }');
    const refused = await s.next();
    expect(JSON.stringify(refused)).toContain("field 'event_stream' not found in type: 'subscription_root'");
  });

  it('has the cursor types of the well-known engine', async () => {
    const r = await gql(
      fx.engine,
      `{ input: __type(name: "event_stream_cursor_input") { inputFields { name type { kind name ofType { name } } } }
         value: __type(name: "event_stream_cursor_value_input") { inputFields { name type { name } } }
         ordering: __type(name: "cursor_ordering") { kind enumValues { name } }
         root: __type(name: "subscription_root") { fields { name args { name type { kind name ofType { kind name ofType { kind name } } } } } } }`,
      undefined,
      { 'x-service-role': 'capped' },
    );
    expect(r.data.input.inputFields).toEqual([
      { name: 'initial_value', type: { kind: 'NON_NULL', name: null, ofType: { name: 'event_stream_cursor_value_input' } } },
      { name: 'ordering', type: { kind: 'ENUM', name: 'cursor_ordering', ofType: null } },
    ]);
    // The columns the role may select.
    expect(r.data.value.inputFields).toEqual([
      { name: 'body', type: { name: 'String' } },
      { name: 'id', type: { name: 'Int' } },
    ]);
    expect(r.data.ordering).toEqual({ kind: 'ENUM', enumValues: [{ name: 'ASC' }, { name: 'DESC' }] });
    const stream = r.data.root.fields.find((f: any) => f.name === 'event_stream');
    expect(stream.args).toEqual([
      { name: 'batch_size', type: { kind: 'NON_NULL', name: null, ofType: { kind: 'SCALAR', name: 'Int', ofType: null } } },
      { name: 'cursor', type: { kind: 'NON_NULL', name: null, ofType: { kind: 'LIST', name: null, ofType: { kind: 'INPUT_OBJECT', name: 'event_stream_cursor_input' } } } },
      { name: 'where', type: { kind: 'INPUT_OBJECT', name: 'event_bool_exp', ofType: null } },
    ]);
  });
});
