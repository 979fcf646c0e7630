/**
 * Literals of a subscription lifted into synthetic variables, through the `graphql-ws` client
 * library against a running engine: subscriptions that differ only in literal values (ids
 * compared, `_in` lists, `limit`, a stream's `batch_size`) get their own rows and pushes from
 * one multiplexed query, one statement per refetch for all their cohorts, as subscriptions
 * differing only in variables do. Seen as a user sees it: `/dev/subscriptions` (multiplexed
 * queries and cohorts), the engine's debug log (one `live query refetched` line per
 * multiplexed statement, with its cohort count) and `/v1/graphql/explain`
 * (`variables.synthetic`). Literals that shape the SQL (an `order_by` direction) stay in it,
 * and a session variable no permission reads does not split cohorts.
 */
import type { Client } from 'graphql-ws';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useEngine } from '../support/fixture.js';
import { replaceTables } from '../support/graphql.js';
import { cohortsPerStatement as cohortsPerStatementOf, connect as connectClient, liveQueryCounts, sleep, subscribe } from '../support/graphql-ws.js';

const INTERVAL_MS = 100;
const fx = useEngine({
  SERVICE_GRAPHQL_LIVE_QUERIES_MULTIPLEXED_REFETCH_INTERVAL: String(INTERVAL_MS),
  SERVICE_GRAPHQL_LOG_LEVEL: 'debug',
  // The multiplexers' `live query refetched` lines (one per statement run).
  SERVICE_GRAPHQL_ENABLED_LOG_TYPES: 'startup, livequery-poller-log',
  SERVICE_GRAPHQL_ENABLED_APIS: 'metadata,graphql,developer',
  // Polling only: the tests count the statements of every interval.
  SERVICE_GRAPHQL_LIVE_QUERIES_CHANGE_CAPTURE: 'false',
});

beforeAll(async () => {
  await fx.db.sql(`CREATE TABLE note (id serial PRIMARY KEY, owner text NOT NULL, title text NOT NULL, score int NOT NULL DEFAULT 0);
    INSERT INTO note (id, owner, title, score) VALUES (1, 'u1', 'a', 1), (2, 'u2', 'b', 2), (3, 'u1', 'c', 3), (4, 'u2', 'd', 4);`);
  await replaceTables(fx.engine, [
    {
      table: { schema: 'public', name: 'note' },
      select_permissions: [
        { role: 'user', permission: { columns: ['id', 'title', 'score'], filter: { owner: { _eq: 'X-Service-User-Id' } } } },
        { role: 'reader', permission: { columns: ['id', 'title', 'score'], filter: {} } },
      ],
    },
  ]);
});

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.dispose()));
  await fx.db.sql(`DELETE FROM note WHERE id > 4`);
});

const connect = (headers: Record<string, string> = { 'x-service-role': 'reader' }): Client => connectClient(fx.engine, clients, headers);

const cohortsPerStatement = (intervals: number): Promise<number[]> => cohortsPerStatementOf(fx.engine, INTERVAL_MS, intervals);

/** Asserts that the subscribers share one multiplexed query of `cohorts` cohorts, run as one statement per refetch. */
async function expectOneStatementFor(cohorts: number, subscribers = cohorts): Promise<void> {
  expect(await liveQueryCounts(fx.engine)).toEqual({ queries: 1, cohorts, subscribers });
  const statements = await cohortsPerStatement(4);
  expect(statements.length).toBeGreaterThanOrEqual(2);
  // One statement per refetch, every cohort in it (one per literal would be `cohorts` times as many, of one cohort each).
  expect(statements.length).toBeLessThanOrEqual(6);
  expect(statements.every((n) => n === cohorts)).toBe(true);
}

async function explain(query: string, user: Record<string, string> = { 'x-service-role': 'reader' }): Promise<any> {
  const r = await fx.engine.post('/v1/graphql/explain', { query: { query }, user });
  expect(r.status).toBe(200);
  return r.body;
}

describe('literals lifted into synthetic variables', () => {
  it('serves subscribers of different literal ids from one statement, each with its own rows and pushes', async () => {
    const c = connect();
    const one = subscribe(c, 'subscription { note(where: {id: {_eq: 1}}) { id title } }');
    const two = subscribe(c, 'subscription { note(where: {id: {_eq: 2}}) { id title } }');
    expect(await one.next()).toEqual({ data: { note: [{ id: 1, title: 'a' }] } });
    expect(await two.next()).toEqual({ data: { note: [{ id: 2, title: 'b' }] } });
    await expectOneStatementFor(2);
    await fx.db.sql(`UPDATE note SET title = 'B' WHERE id = 2`);
    expect(await two.next()).toEqual({ data: { note: [{ id: 2, title: 'B' }] } });
    await expect(one.next(4 * INTERVAL_MS)).rejects.toThrow('no result');
    await fx.db.sql(`UPDATE note SET title = 'b' WHERE id = 2`);
    expect(await two.next()).toEqual({ data: { note: [{ id: 2, title: 'b' }] } });
  });

  it('lifts lists and limits: different `_in` lists and limits share one statement', async () => {
    const c = connect();
    const query = (ids: string, limit: number, titles: string) => `subscription { note(where: {id: {_in: ${ids}}, title: {_nin: ${titles}}}, order_by: {id: asc}, limit: ${limit}) { id } }`;
    // Elements PostgreSQL's array syntax must quote: a blank, a quote, a backslash, braces, the word NULL, an empty string.
    const one = subscribe(c, query('[1, 3, 5, 7]', 5, String.raw`["a b", "q\"", "back\\slash", "{,}", "NULL", ""]`));
    const two = subscribe(c, query('[2, 4, 6]', 1, '["x"]'));
    expect(await one.next()).toEqual({ data: { note: [{ id: 1 }, { id: 3 }] } });
    expect(await two.next()).toEqual({ data: { note: [{ id: 2 }] } });
    await expectOneStatementFor(2);
    await fx.db.sql(`INSERT INTO note (id, owner, title) VALUES (5, 'u1', 'e'), (6, 'u2', 'f'), (7, 'u1', 'back\\slash')`);
    // Row 7's title is in its `_nin` list.
    expect(await one.next()).toEqual({ data: { note: [{ id: 1 }, { id: 3 }, { id: 5 }] } });
    // Its limit keeps it at one row: the insert changes nothing for it.
    await expect(two.next(4 * INTERVAL_MS)).rejects.toThrow('no result');
  });

  it('keeps literals that shape the SQL in it: an order_by direction makes another multiplexed query', async () => {
    const c = connect();
    const asc = subscribe(c, 'subscription { note(order_by: {id: asc}, limit: 1) { id } }');
    const desc = subscribe(c, 'subscription { note(order_by: {id: desc}, limit: 1) { id } }');
    expect(await asc.next()).toEqual({ data: { note: [{ id: 1 }] } });
    expect(await desc.next()).toEqual({ data: { note: [{ id: 4 }] } });
    expect(await liveQueryCounts(fx.engine)).toEqual({ queries: 2, cohorts: 2, subscribers: 2 });
  });

  it('does not split cohorts by session variables no permission of the role reads', async () => {
    const query = 'subscription { note(where: {score: {_gte: 2}}, order_by: {id: asc}) { id } }';
    const one = subscribe(connect({ 'x-service-role': 'reader', 'x-service-user-id': 'u1', 'x-service-team': 'x' }), query);
    const two = subscribe(connect({ 'x-service-role': 'reader', 'x-service-user-id': 'u2' }), query);
    const rows = { data: { note: [{ id: 2 }, { id: 3 }, { id: 4 }] } };
    expect(await one.next()).toEqual(rows);
    expect(await two.next()).toEqual(rows);
    await expectOneStatementFor(1, 2);
    // The user role's permission reads x-service-user-id: there it does split them, in one statement.
    const mine = subscribe(connect({ 'x-service-role': 'user', 'x-service-user-id': 'u1', 'x-service-team': 'x' }), query);
    const theirs = subscribe(connect({ 'x-service-role': 'user', 'x-service-user-id': 'u2', 'x-service-team': 'y' }), query);
    expect(await mine.next()).toEqual({ data: { note: [{ id: 3 }] } });
    expect(await theirs.next()).toEqual({ data: { note: [{ id: 2 }, { id: 4 }] } });
    one.stop();
    two.stop();
    await sleep(2 * INTERVAL_MS);
    await expectOneStatementFor(2);
  });

  it('explains a subscription with its literals as synthetic variables, in text', async () => {
    const body = await explain('subscription { note(where: {id: {_in: [1, 2, 3]}, title: {_neq: "a b"}}, limit: 2) { id } }', {
      'x-service-role': 'user',
      'x-service-user-id': 'u1',
      'x-service-team': 'x',
    });
    expect(body.variables).toEqual({ query: {}, session: { 'x-service-user-id': 'u1' }, synthetic: ['{1,2,3}', 'a b', '2'] });
    expect(body.sql).toContain(`("__subs"."result_vars" #>> '{synthetic,0}'))::integer[]`);
    expect(body.sql).toContain(`LIMIT (("__subs"."result_vars" #>> '{synthetic,2}'))::bigint`);
    expect(body.sql).not.toContain('a b');
  });
});

describe('streaming subscriptions with literals', () => {
  it('streams to subscribers of different literal filters and batch sizes from one statement', async () => {
    const c = connect();
    const stream = (owner: string, batch: number) => `subscription { note_stream(cursor: {initial_value: {id: 0}}, batch_size: ${batch}, where: {title: {_neq: "${owner}"}}) { id } }`;
    const one = subscribe(c, stream('a', 10));
    const two = subscribe(c, stream('b', 1));
    expect(await one.next()).toEqual({ data: { note_stream: [{ id: 2 }, { id: 3 }, { id: 4 }] } });
    // A batch of one row per refetch.
    expect(await two.next()).toEqual({ data: { note_stream: [{ id: 1 }] } });
    expect(await two.next()).toEqual({ data: { note_stream: [{ id: 3 }] } });
    expect(await two.next()).toEqual({ data: { note_stream: [{ id: 4 }] } });
    await expectOneStatementFor(2);
    await fx.db.sql(`INSERT INTO note (id, owner, title) VALUES (5, 'u1', 'a'), (6, 'u2', 'b')`);
    expect(await one.next()).toEqual({ data: { note_stream: [{ id: 6 }] } });
    expect(await two.next()).toEqual({ data: { note_stream: [{ id: 5 }] } });
    await expect(two.next(4 * INTERVAL_MS)).rejects.toThrow('no result');

    const body = await explain(stream('a', 10));
    expect(body.variables).toEqual({ query: {}, session: {}, synthetic: ['a', '10'], cursor: '0' });
  });
});
