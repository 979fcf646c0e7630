/**
 * Subscriptions as multiplexed live queries, through the
 * `graphql-ws` client library (graphql-transport-ws) against a running engine: results and
 * their updates, per-subscriber permissions, cohorts sharing one statement (counted in the
 * engine's debug log, one line per multiplexed statement with its cohort count), literals
 * lifted into synthetic variables, unused session variables, cleanup, and explain.
 */
import type { Client } from 'graphql-ws';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useEngine } from '../support/fixture.js';
import { replaceTables } from '../support/graphql.js';
import { cohortsPerStatement as cohortsPerStatementOf, connect as connectClient, logged as loggedLines, sleep, subscribe } from '../support/graphql-ws.js';

const INTERVAL_MS = 100;
const fx = useEngine({
  SERVICE_GRAPHQL_LIVE_QUERIES_MULTIPLEXED_REFETCH_INTERVAL: String(INTERVAL_MS),
  SERVICE_GRAPHQL_LOG_LEVEL: 'debug',
  // The multiplexers' `live query refetched` lines (one per statement run).
  SERVICE_GRAPHQL_ENABLED_LOG_TYPES: 'startup, livequery-poller-log',
  SERVICE_GRAPHQL_LIVE_QUERIES_MULTIPLEXED_BATCH_SIZE: '2',
  // Polling only: these tests count the statements of every interval (change capture: subscriptions-change-capture.test.ts).
  SERVICE_GRAPHQL_LIVE_QUERIES_CHANGE_CAPTURE: 'false',
});

beforeAll(async () => {
  await fx.db.sql(`CREATE TABLE note (id serial PRIMARY KEY, owner text NOT NULL, title text NOT NULL, score int NOT NULL DEFAULT 0);
    INSERT INTO note (owner, title, score) VALUES ('u1', 'a', 1), ('u2', 'b', 2), ('u1', 'c', 3);
    CREATE FUNCTION my_notes(session json) RETURNS SETOF note AS $$ SELECT * FROM note WHERE owner = session->>'x-service-user-id' $$ LANGUAGE sql STABLE;`);
  await replaceTables(fx.engine, [
    {
      table: { schema: 'public', name: 'note' },
      select_permissions: [
        { role: 'user', permission: { columns: ['id', 'title', 'score'], filter: { owner: { _eq: 'X-Service-User-Id' } } } },
        { role: 'reader', permission: { columns: ['id', 'title'], filter: {} } },
      ],
    },
  ], { source: { functions: [{ function: { schema: 'public', name: 'my_notes' }, configuration: { session_argument: 'session' } }] } });
});

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.dispose()));
  await fx.db.sql(`DELETE FROM note WHERE id > 3; UPDATE note SET title = CASE id WHEN 1 THEN 'a' WHEN 2 THEN 'b' ELSE 'c' END`);
});

const connect = (headers: Record<string, string> = {}): Client => connectClient(fx.engine, clients, headers);

const user = (id: string) => ({ 'x-service-role': 'user', 'x-service-user-id': id });
const logged = (message: string, from: number): any[] => loggedLines(fx.engine, message, from);

const cohortsPerStatement = (intervals: number): Promise<number[]> => cohortsPerStatementOf(fx.engine, INTERVAL_MS, intervals);

const NOTES = 'subscription { note(order_by: {id: asc}) { id title } }';

describe('multiplexed live queries', () => {
  it('sends the initial result, then a new one after an insert, an update and a delete', async () => {
    const s = subscribe(connect(user('u1')), NOTES);
    expect(await s.next()).toEqual({ data: { note: [{ id: 1, title: 'a' }, { id: 3, title: 'c' }] } });
    await fx.db.sql(`INSERT INTO note (id, owner, title) VALUES (10, 'u1', 'd')`);
    expect(await s.next()).toEqual({ data: { note: [{ id: 1, title: 'a' }, { id: 3, title: 'c' }, { id: 10, title: 'd' }] } });
    await fx.db.sql(`UPDATE note SET title = 'e' WHERE id = 10`);
    expect(await s.next()).toEqual({ data: { note: [{ id: 1, title: 'a' }, { id: 3, title: 'c' }, { id: 10, title: 'e' }] } });
    await fx.db.sql(`DELETE FROM note WHERE id = 10`);
    expect(await s.next()).toEqual({ data: { note: [{ id: 1, title: 'a' }, { id: 3, title: 'c' }] } });
    // Another user's row does not change this result: nothing is sent.
    await fx.db.sql(`INSERT INTO note (id, owner, title) VALUES (11, 'u2', 'x')`);
    await expect(s.next(5 * INTERVAL_MS)).rejects.toThrow('no result');
  });

  it('serves subscribers with different session values from one statement per refetch, each with its own rows', async () => {
    const one = subscribe(connect(user('u1')), NOTES);
    const two = subscribe(connect(user('u2')), NOTES);
    expect(await one.next()).toEqual({ data: { note: [{ id: 1, title: 'a' }, { id: 3, title: 'c' }] } });
    expect(await two.next()).toEqual({ data: { note: [{ id: 2, title: 'b' }] } });
    const statements = await cohortsPerStatement(6);
    expect(statements.length).toBeGreaterThanOrEqual(3);
    // One statement per refetch, for both cohorts.
    expect(statements.length).toBeLessThanOrEqual(8);
    expect(statements.every((n) => n === 2)).toBe(true);
    await fx.db.sql(`INSERT INTO note (id, owner, title) VALUES (12, 'u2', 'f')`);
    expect(await two.next()).toEqual({ data: { note: [{ id: 2, title: 'b' }, { id: 12, title: 'f' }] } });
    await expect(one.next(4 * INTERVAL_MS)).rejects.toThrow('no result');
  });

  it('shares one statement between queries that differ only in a literal', async () => {
    const c = connect({ 'x-service-role': 'reader' });
    const a = subscribe(c, 'subscription { note(where: {title: {_eq: "a"}}) { id } }');
    const b = subscribe(c, 'subscription {\n  note(where: {title: {_eq: "b"}}) { id }\n}');
    expect(await a.next()).toEqual({ data: { note: [{ id: 1 }] } });
    expect(await b.next()).toEqual({ data: { note: [{ id: 2 }] } });
    const statements = await cohortsPerStatement(4);
    expect(statements.length).toBeGreaterThanOrEqual(2);
    expect(statements.every((n) => n === 2)).toBe(true);
    await fx.db.sql(`UPDATE note SET title = 'b' WHERE id = 3`);
    expect(await b.next()).toEqual({ data: { note: [{ id: 2 }, { id: 3 }] } });
  });

  it('does not split cohorts by a session variable the query does not read', async () => {
    const one = subscribe(connect({ 'x-service-role': 'reader', 'x-service-user-id': 'u1' }), NOTES);
    const two = subscribe(connect({ 'x-service-role': 'reader', 'x-service-user-id': 'u2' }), NOTES);
    const all = { data: { note: [{ id: 1, title: 'a' }, { id: 2, title: 'b' }, { id: 3, title: 'c' }] } };
    expect(await one.next()).toEqual(all);
    expect(await two.next()).toEqual(all);
    const statements = await cohortsPerStatement(4);
    expect(statements.length).toBeGreaterThanOrEqual(2);
    expect(statements.every((n) => n === 1)).toBe(true);
  });

  it('keeps every session variable in the cohort when a function gets the whole session', async () => {
    const query = 'subscription { my_notes(order_by: {id: asc}) { id } }';
    const one = subscribe(connect({ 'x-service-role': 'reader', 'x-service-user-id': 'u1' }), query);
    const two = subscribe(connect({ 'x-service-role': 'reader', 'x-service-user-id': 'u2' }), query);
    expect(await one.next()).toEqual({ data: { my_notes: [{ id: 1 }, { id: 3 }] } });
    expect(await two.next()).toEqual({ data: { my_notes: [{ id: 2 }] } });
    const statements = await cohortsPerStatement(3);
    expect(statements.length).toBeGreaterThanOrEqual(1);
    expect(statements.every((n) => n === 2)).toBe(true);
  });

  it('keeps subscribers with different variables in their own cohorts of one statement', async () => {
    const c = connect({ 'x-service-role': 'reader' });
    const query = 'subscription ($ids: [Int!]) { note(where: {id: {_in: $ids}}, order_by: {id: asc}) { id } }';
    const a = subscribe(c, query, { ids: [1, 3] });
    const b = subscribe(c, query, { ids: 2 });
    expect(await a.next()).toEqual({ data: { note: [{ id: 1 }, { id: 3 }] } });
    expect(await b.next()).toEqual({ data: { note: [{ id: 2 }] } });
    const statements = await cohortsPerStatement(3);
    expect(statements.length).toBeGreaterThanOrEqual(1);
    expect(statements.every((n) => n === 2)).toBe(true);
  });

  it('runs one statement per batch of cohorts', async () => {
    const subs = ['u1', 'u2', 'u3'].map((id) => subscribe(connect(user(id)), NOTES));
    for (const s of subs) await s.next();
    const sizes = await cohortsPerStatement(4);
    // Batches of 2 (SERVICE_GRAPHQL_LIVE_QUERIES_MULTIPLEXED_BATCH_SIZE): each refetch runs one of 2 cohorts and one of 1.
    expect(sizes.length).toBeGreaterThanOrEqual(4);
    expect(sizes.filter((n) => n === 2).length - sizes.filter((n) => n === 1).length).toBeLessThanOrEqual(1);
    expect(sizes.every((n) => n === 1 || n === 2)).toBe(true);
  });

  it('plans a running subscription again when its permission changes', async () => {
    const s = subscribe(connect(user('u1')), NOTES);
    expect(await s.next()).toEqual({ data: { note: [{ id: 1, title: 'a' }, { id: 3, title: 'c' }] } });
    const permission = (filter: unknown) => ({
      type: 'bulk',
      args: [
        { type: 'pg_drop_select_permission', args: { table: 'note', role: 'user' } },
        { type: 'pg_create_select_permission', args: { table: 'note', role: 'user', permission: { columns: ['id', 'title', 'score'], filter } } },
      ],
    });
    const own = { owner: { _eq: 'X-Service-User-Id' } };
    expect((await fx.engine.metadata(permission({ _and: [own, { title: { _neq: 'c' } }] }))).status).toBe(200);
    expect(await s.next()).toEqual({ data: { note: [{ id: 1, title: 'a' }] } });
    expect((await fx.engine.metadata(permission(own))).status).toBe(200);
    expect(await s.next()).toEqual({ data: { note: [{ id: 1, title: 'a' }, { id: 3, title: 'c' }] } });
  });

  it('leaves no cohort behind when subscribers stop or disconnect', async () => {
    const c = connect(user('u1'));
    const s = subscribe(c, NOTES);
    await s.next();
    const d = connect(user('u2'));
    const t = subscribe(d, NOTES);
    await t.next();
    const from = fx.engine.logs.length;
    s.stop();
    await d.dispose();
    await sleep(2 * INTERVAL_MS);
    expect(logged('live query stopped', from).length).toBe(1);
    const after = fx.engine.logs.length;
    await sleep(4 * INTERVAL_MS);
    expect(logged('live query refetched', after)).toEqual([]);
  });

  it("gives each of a connection's subscribers its result, those of one cohort and of another alike, and keeps the others going when one stops", async () => {
    // The results of one refetch for a connection's subscribers are written together (corked); cohort values are shared by a cohort's subscribers.
    const c = connect(user('u1'));
    const same = [subscribe(c, NOTES), subscribe(c, NOTES), subscribe(c, NOTES)];
    const titled = subscribe(c, 'subscription ($t: String!) { note(where: {title: {_eq: $t}}) { id } }', { t: 'd' });
    const other = subscribe(connect(user('u1')), NOTES);
    const first = { data: { note: [{ id: 1, title: 'a' }, { id: 3, title: 'c' }] } };
    for (const s of [...same, other]) expect(await s.next()).toEqual(first);
    expect(await titled.next()).toEqual({ data: { note: [] } });
    await fx.db.sql(`INSERT INTO note (id, owner, title) VALUES (13, 'u1', 'd')`);
    const second = { data: { note: [...first.data.note, { id: 13, title: 'd' }] } };
    for (const s of [...same, other]) expect(await s.next()).toEqual(second);
    expect(await titled.next()).toEqual({ data: { note: [{ id: 13 }] } });
    same[0]!.stop();
    await fx.db.sql(`UPDATE note SET title = 'e' WHERE id = 13`);
    const third = { data: { note: [...first.data.note, { id: 13, title: 'e' }] } };
    for (const s of [same[1]!, same[2]!, other]) expect(await s.next()).toEqual(third);
    expect(await titled.next()).toEqual({ data: { note: [] } });
    await expect(same[0]!.next(3 * INTERVAL_MS)).rejects.toThrow('no result');
  });

  it('reports a missing session variable to its subscriber only', async () => {
    const bad = subscribe(connect({ 'x-service-role': 'user' }), NOTES);
    const good = subscribe(connect(user('u2')), NOTES);
    expect(await bad.next()).toEqual({ errors: [{ message: 'missing session variables: "x-service-user-id"', extensions: { path: '$', code: 'not-found' } }] });
    expect(await good.next()).toEqual({ data: { note: [{ id: 2, title: 'b' }] } });
    await expect(bad.next(3 * INTERVAL_MS)).rejects.toThrow('no result');
  });
});

describe('explain for a subscription', () => {
  it('returns the multiplexed statement, its plan, and the variables it runs with', async () => {
    const r = await fx.engine.post('/v1/graphql/explain', {
      query: { query: 'subscription ($min: Int!) { note(where: {title: {_neq: "zz"}, score: {_gte: $min}}) { id } }', variables: { min: 2 } },
      user: { 'x-service-role': 'user', 'x-service-user-id': 'u1', 'x-service-unused': 'z' },
    });
    expect(r.status).toBe(200);
    expect(r.body.variables).toEqual({ synthetic: ['zz'], query: { min: 2 }, session: { 'x-service-user-id': 'u1' } });
    expect(r.body.sql).toContain('FROM unnest(($1)::json[]) WITH ORDINALITY AS "__subs"("result_vars", "result_id") LEFT OUTER JOIN LATERAL');
    expect(r.body.sql).toContain(`"__subs"."result_vars" #>> '{synthetic,0}'`);
    expect(r.body.sql).toContain(`"__subs"."result_vars" #>> '{query,min}'`);
    expect(r.body.sql).not.toContain('zz');
    expect(r.body.plan.length).toBeGreaterThan(0);
    expect(r.body.plan.join('\n')).toMatch(/Function Scan on unnest/);
  });
});
