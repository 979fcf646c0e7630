/**
 * What an operator sees of the multiplexer actors' polls (docs/operations.md "Traces", "Query
 * tags"): with tracing on, each refetch of a multiplexed query is a trace of its own, a `live
 * query poll` / `streaming query poll` span naming its source and its number of cohorts, with
 * its statements' spans in it (their SQL with SERVICE_GRAPHQL_ENABLE_QUERY_TRACING); with query
 * tags set on the source, the multiplexed statement carries the comment the well-known engine
 * gives a subscription's (field name and parameterized query hash, no request id), seen in
 * `pg_stat_activity` and in the span.
 */
import type { Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../support/db.js';
import { startEngine, type Engine } from '../support/engine.js';
import { until } from '../support/events.js';
import { connect, subscribe } from '../support/graphql-ws.js';
import { OtlpReceiver, type ReceivedSpan } from '../support/otlp-receiver.js';

const ADMIN = { 'x-service-admin-secret': 'adm' };
const TAGS = /\n\/\* field_name=(\w+), parameterized_query_hash=[0-9a-f]{40} \*\/$/;

let db: TestDatabase;
let engine: Engine;
const receiver = new OtlpReceiver();
const clients: Client[] = [];

const ok = async (type: string, args: unknown) => {
  const r = await engine.metadata({ type, args }, ADMIN);
  expect(r.body, `${type}: ${JSON.stringify(r.body)}`).toEqual({ message: 'success' });
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  await receiver.start();
  db = await freshDatabase();
  await db.sql(`CREATE TABLE note (id int PRIMARY KEY, body text NOT NULL); INSERT INTO note VALUES (1, 'a'), (2, 'b');
    CREATE VIEW slow_note AS SELECT n.id FROM note n, pg_sleep(0.3);`);
  engine = await startEngine({
    SERVICE_GRAPHQL_DATABASE_URL: db.url,
    SERVICE_GRAPHQL_ADMIN_SECRET: 'adm',
    SERVICE_GRAPHQL_ENABLE_QUERY_TRACING: 'true',
    // Every query polled (no change capture), often; one actor, so that its cohorts share a poll.
    SERVICE_GRAPHQL_LIVE_QUERIES_CHANGE_CAPTURE: 'false',
    SERVICE_GRAPHQL_LIVE_QUERIES_MULTIPLEXED_REFETCH_INTERVAL: '200',
    SERVICE_GRAPHQL_LIVE_QUERIES_MULTIPLEXERS: '1',
    OTEL_BSP_SCHEDULE_DELAY: '100',
  });
  await ok('pg_track_table', { table: 'note' });
  await ok('pg_track_table', { table: 'slow_note' });
  await ok('set_query_tags', { source_name: 'default' });
  await ok('set_opentelemetry_config', {
    status: 'enabled',
    data_types: ['traces'],
    exporter_otlp: { otlp_traces_endpoint: `http://127.0.0.1:${receiver.port}/v1/traces`, protocol: 'http/protobuf' },
    batch_span_processor: { max_export_batch_size: 64 },
  });
});

afterAll(async () => {
  for (const c of clients) await c.dispose();
  await engine?.stop();
  await db?.drop();
  await receiver.stop();
});

/** The statement spans under a poll span. */
const childrenOf = (poll: ReceivedSpan) => receiver.trace(poll.traceId).filter((s) => s.parentSpanId === poll.spanId);

describe("the multiplexer actors' polls", () => {
  it('are traced: one root span per refetch, with its source and cohorts, its tagged statement in it', async () => {
    const client = connect(engine, clients, ADMIN);
    // Two cohorts of one multiplexed query (their variables differ).
    const q = 'subscription Notes($id: Int!) { note(where: {id: {_eq: $id}}) { id } }';
    const [one, two] = [subscribe(client, q, { id: 1 }), subscribe(client, q, { id: 2 })];
    expect((await one.next()).data.note).toEqual([{ id: 1 }]);
    expect((await two.next()).data.note).toEqual([{ id: 2 }]);

    const poll = await until('a poll of both cohorts', () => receiver.spans.find((s) => s.name === 'live query poll' && s.attributes.cohorts === 2 && childrenOf(s).length > 0));
    expect(poll.parentSpanId).toBe('');
    expect(poll.kind).toBe(1);
    expect(poll.attributes).toMatchObject({ source: 'default', cohorts: 2, batches: 1, 'graphql.operation.type': 'subscription' });
    const [statement] = childrenOf(poll);
    expect(statement!.attributes).toMatchObject({ 'db.system': 'postgresql', source: 'default' });
    expect(String(statement!.attributes['db.statement'])).toMatch(TAGS);
    expect(String(statement!.attributes['db.statement']).match(TAGS)![1]).toBe('note');
    // Each poll a trace of its own.
    const polls = receiver.spans.filter((s) => s.name === 'live query poll');
    await until('another poll', () => receiver.spans.filter((s) => s.name === 'live query poll').length > polls.length);
    expect(new Set(receiver.spans.filter((s) => s.name === 'live query poll').map((s) => s.traceId)).size).toBe(receiver.spans.filter((s) => s.name === 'live query poll').length);
    one.stop();
    two.stop();
  });

  it("names a streaming subscription's polls apart", async () => {
    const stream = subscribe(connect(engine, clients, ADMIN), 'subscription { note_stream(batch_size: 10, cursor: {initial_value: {id: 0}}) { id } }');
    expect((await stream.next()).data.note_stream).toEqual([{ id: 1 }, { id: 2 }]);
    const poll = await until('a streaming poll', () => receiver.spans.find((s) => s.name === 'streaming query poll' && childrenOf(s).length > 0));
    expect(poll.attributes).toMatchObject({ source: 'default', cohorts: 1 });
    expect(String(childrenOf(poll)[0]!.attributes['db.statement'])).toMatch(TAGS);
    stream.stop();
  });

  it('carry the query tags into the database: pg_stat_activity shows the multiplexed statement with its comment', async () => {
    const live = subscribe(connect(engine, clients, ADMIN), 'subscription Slow { slow_note { id } }');
    expect((await live.next()).data.slow_note).toEqual([{ id: 1 }, { id: 2 }]);
    let seen: string | undefined;
    for (let i = 0; i < 80 && seen === undefined; i++) {
      const r = await db.sql(`SELECT query FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND query LIKE '%"slow_note"%' AND state = 'active'`);
      seen = r.rows[0]?.query as string | undefined;
      if (seen === undefined) await sleep(25);
    }
    expect(seen).toMatch(TAGS);
    expect(seen!.match(TAGS)![1]).toBe('slow_note');
    live.stop();
  });
});
