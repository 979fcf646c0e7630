/**
 * The live SQL Server suite: SERVICE_TEST_MSSQL_CONNECTION_STRING names a SQL Server the test
 * may write to (docs/backends.md); `npm test` runs it only when that is set (vitest.config.ts). It
 * is in addition to the golden tests (test/golden/mssql), which check every statement without
 * a server: here the same kinds of requests run for real and their answers are compared.
 */
import { Connection, Request } from 'tedious';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectionTarget } from '../../src/backends/mssql/configuration.js';
import type { Client } from 'graphql-ws';
import { useEngine } from '../support/fixture.js';
import { connect, subscribe } from '../support/graphql-ws.js';
import { startServer, type TestServer } from '../auth/http-server.js';
import { until } from '../support/events.js';
import { RemoteGraphQL } from '../support/remote-graphql.js';

const CONNECTION_STRING = process.env.SERVICE_TEST_MSSQL_CONNECTION_STRING ?? '';
if (!CONNECTION_STRING) throw new Error('the live SQL Server suite needs SERVICE_TEST_MSSQL_CONNECTION_STRING (see docs/backends.md)');

/** Runs a batch on the server directly (setup and teardown). */
async function batch(text: string): Promise<void> {
  const t = connectionTarget(CONNECTION_STRING);
  const c = new Connection({
    server: t.server,
    authentication: { type: 'default', options: { userName: t.user ?? undefined, password: t.password ?? undefined } },
    options: { port: t.port, ...(t.database ? { database: t.database } : {}), encrypt: t.encrypt, trustServerCertificate: t.trustServerCertificate },
  });
  await new Promise<void>((resolve, reject) => c.connect((e) => (e ? reject(e) : resolve())));
  await new Promise<void>((resolve, reject) => c.execSqlBatch(new Request(text, (e) => (e ? reject(e) : resolve()))));
  c.close();
}

let hook: TestServer | undefined;

describe('a live SQL Server source', () => {
  // One delivery of a trigger at a time: the cap's application locks run for real.
  const fx = useEngine({ SERVICE_TEST_MSSQL_CONNECTION_STRING: CONNECTION_STRING, SERVICE_GRAPHQL_EVENTS_FETCH_INTERVAL: '200', SERVICE_GRAPHQL_EVENTS_MAX_CONCURRENT_PER_TRIGGER: '1' });
  const meta = (type: string, args: Record<string, unknown>) => fx.engine.metadata({ type, args: { source: 'live', ...args } });
  const query = (q: string, headers: Record<string, string> = {}) => fx.engine.post('/v1/graphql', { query: q }, headers);

  beforeAll(async () => {
    await batch(`
      IF OBJECT_ID('dbo.svc_article') IS NOT NULL DROP TABLE dbo.svc_article;
      IF OBJECT_ID('dbo.svc_author') IS NOT NULL DROP TABLE dbo.svc_author;
      CREATE TABLE dbo.svc_author (id int PRIMARY KEY, name nvarchar(100) NOT NULL, rating decimal(5,2) NULL);
      CREATE TABLE dbo.svc_article (id int PRIMARY KEY, title nvarchar(max) NOT NULL, author_id int NOT NULL REFERENCES dbo.svc_author(id), views bigint NULL);
      INSERT INTO dbo.svc_author VALUES (1, N'Ann', 4.5), (2, N'Bo', NULL);
      INSERT INTO dbo.svc_article VALUES (1, N'SQL guide', 1, 120), (2, N'Notes', 1, 3), (3, N'Draft', 2, NULL);
    `);
    const add = await fx.engine.metadata({ type: 'mssql_add_source', args: { name: 'live', configuration: { connection_info: { connection_string: { from_env: 'SERVICE_TEST_MSSQL_CONNECTION_STRING' } } } } });
    expect(add.status).toBe(200);
    // A bare table name is in dbo on SQL Server.
    for (const name of ['svc_author', 'svc_article']) expect((await meta('mssql_track_table', { table: name })).status).toBe(200);
    expect((await meta('mssql_create_object_relationship', { table: { schema: 'dbo', name: 'svc_article' }, name: 'author', using: { foreign_key_constraint_on: 'author_id' } })).status).toBe(200);
    const articles = { foreign_key_constraint_on: { table: { schema: 'dbo', name: 'svc_article' }, column: 'author_id' } };
    expect((await meta('mssql_create_array_relationship', { table: { schema: 'dbo', name: 'svc_author' }, name: 'articles', using: articles })).status).toBe(200);
    const permission = { columns: ['id', 'name'], filter: { id: { _eq: 'X-Service-User-Id' } } };
    expect((await meta('mssql_create_select_permission', { table: { schema: 'dbo', name: 'svc_author' }, role: 'user', permission })).status).toBe(200);
    const article = { schema: 'dbo', name: 'svc_article' };
    const own = { author_id: { _eq: 'X-Service-User-Id' } };
    const writes = [
      ['mssql_create_select_permission', { columns: ['id', 'title', 'views'], filter: own }],
      ['mssql_create_insert_permission', { columns: ['id', 'title', 'views'], set: { author_id: 'X-Service-User-Id' }, check: { views: { _lt: 1000 } } }],
      ['mssql_create_update_permission', { columns: ['title', 'views'], filter: own, check: { views: { _gte: 0 } } }],
      ['mssql_create_delete_permission', { filter: own }],
    ] as const;
    for (const [type, p] of writes) expect((await meta(type, { table: article, role: 'user', permission: p })).status).toBe(200);
  });

  afterAll(async () => {
    await hook?.close();
    await batch('DROP TABLE dbo.svc_article; DROP TABLE dbo.svc_author;');
  });

  it('answers selects with where, order, limit and relationships', async () => {
    const r = await query('{ svc_author(order_by: {id: asc}) { name rating articles(where: {views: {_gt: 10}}) { title author { name } } } }');
    expect(r.body).toEqual({ data: { svc_author: [{ name: 'Ann', rating: 4.5, articles: [{ title: 'SQL guide', author: { name: 'Ann' } }] }, { name: 'Bo', rating: null, articles: [] }] } });
  });

  it('answers by primary key and aggregates', async () => {
    const r = await query('{ svc_author_by_pk(id: 2) { name } svc_article_aggregate { aggregate { count max { views } } } }');
    expect(r.body).toEqual({ data: { svc_author_by_pk: { name: 'Bo' }, svc_article_aggregate: { aggregate: { count: 3, max: { views: 120 } } } } });
  });

  it('joins remote relationships both ways between SQL Server and PostgreSQL, and to a remote schema', async () => {
    await fx.db.sql('CREATE TABLE svc_review (id serial PRIMARY KEY, article_id int NOT NULL, stars int NOT NULL); INSERT INTO svc_review (article_id, stars) VALUES (1, 5), (1, 3), (3, 4);');
    const pg = (type: string, args: Record<string, unknown>) => fx.engine.metadata({ type, args });
    expect((await pg('pg_track_table', { table: 'svc_review' })).status).toBe(200);
    const badges = new RemoteGraphQL('type Query { badge(author: Int!): String }', { badge: ({ author }: { author: number }) => `b${author}` });
    await badges.start();
    try {
      expect((await pg('add_remote_schema', { name: 'badges', definition: { url: badges.url } })).status).toBe(200);
      const reviews = { to_source: { relationship_type: 'array', source: 'default', table: 'svc_review', field_mapping: { id: 'article_id' } } };
      expect((await meta('mssql_create_remote_relationship', { table: 'svc_article', name: 'reviews', definition: reviews })).status).toBe(200);
      const badge = { to_remote_schema: { remote_schema: 'badges', lhs_fields: ['id'], remote_field: { badge: { arguments: { author: '$id' } } } } };
      expect((await meta('mssql_create_remote_relationship', { table: 'svc_author', name: 'badge', definition: badge })).status).toBe(200);
      // A bare table of an mssql source is in dbo.
      const article = { to_source: { relationship_type: 'object', source: 'live', table: 'svc_article', field_mapping: { article_id: 'id' } } };
      expect((await pg('pg_create_remote_relationship', { table: 'svc_review', name: 'article', definition: article })).status).toBe(200);
      const r = await query('{ svc_article(order_by: {id: asc}) { title reviews(order_by: {stars: desc}) { stars } author { name badge } } svc_review(order_by: {id: asc}) { stars article { title } } }');
      expect(r.body).toEqual({
        data: {
          svc_article: [
            { title: 'SQL guide', reviews: [{ stars: 5 }, { stars: 3 }], author: { name: 'Ann', badge: 'b1' } },
            { title: 'Notes', reviews: [], author: { name: 'Ann', badge: 'b1' } },
            { title: 'Draft', reviews: [{ stars: 4 }], author: { name: 'Bo', badge: 'b2' } },
          ],
          svc_review: [
            { stars: 5, article: { title: 'SQL guide' } },
            { stars: 3, article: { title: 'SQL guide' } },
            { stars: 4, article: { title: 'Draft' } },
          ],
        },
      });
    } finally {
      await pg('pg_delete_remote_relationship', { table: 'svc_review', name: 'article' });
      await meta('mssql_delete_remote_relationship', { table: 'svc_article', name: 'reviews' });
      await meta('mssql_delete_remote_relationship', { table: 'svc_author', name: 'badge' });
      await pg('remove_remote_schema', { name: 'badges' });
      await badges.stop();
    }
  });

  it('applies permissions with session variables', async () => {
    const r = await query('{ svc_author { id name } }', { 'X-Service-Role': 'user', 'X-Service-User-Id': '2' });
    expect(r.body).toEqual({ data: { svc_author: [{ id: 2, name: 'Bo' }] } });
  });

  const user = { 'X-Service-Role': 'user', 'X-Service-User-Id': '1' };
  const sortById = (rows: { id: number }[]) => [...rows].sort((a, b) => a.id - b.id);
  const titles = async () => (await query('{ svc_article(order_by: {id: asc}) { id title views author_id } }')).body.data.svc_article;

  it('inserts with returning and affected_rows, a preset from the session and the check passing', async () => {
    const r = await query('mutation { insert_svc_article(objects: [{id: 10, title: "Ten", views: 1}, {id: 11, title: "Eleven"}]) { affected_rows returning { id title } } }', user);
    // OUTPUT gives the rows in no particular order.
    expect(r.body.data.insert_svc_article.affected_rows).toBe(2);
    expect(sortById(r.body.data.insert_svc_article.returning)).toEqual([{ id: 10, title: 'Ten' }, { id: 11, title: 'Eleven' }]);
    expect((await titles()).filter((a: any) => a.id >= 10)).toEqual([{ id: 10, title: 'Ten', views: 1, author_id: 1 }, { id: 11, title: 'Eleven', views: null, author_id: 1 }]);
    const one = await query('mutation { insert_svc_author_one(object: {id: 5, name: "Cy"}) { id name articles { id } } }');
    expect(one.body).toEqual({ data: { insert_svc_author_one: { id: 5, name: 'Cy', articles: [] } } });
  });

  it('rolls an insert back when its check fails, and a whole request when a later field fails', async () => {
    const r = await query('mutation { insert_svc_article(objects: [{id: 12, title: "Big", views: 5000}]) { affected_rows } }', user);
    expect(r.body.errors[0].extensions.code).toBe('permission-error');
    const both = await query('mutation { a: insert_svc_article(objects: [{id: 13, title: "Kept?", views: 1}]) { affected_rows } b: insert_svc_article(objects: [{id: 14, title: "Big", views: 5000}]) { affected_rows } }', user);
    expect(both.body.errors[0].extensions.code).toBe('permission-error');
    expect((await titles()).map((a: any) => a.id)).not.toContain(12);
    expect((await titles()).map((a: any) => a.id)).not.toContain(13);
  });

  it('updates with _set and _inc (by primary key and where) within the filter, checking the new rows', async () => {
    const r = await query('mutation { update_svc_article(where: {id: {_in: [10, 3]}}, _set: {title: "Ten!"}, _inc: {views: 2}) { affected_rows returning { id title views } } }', user);
    // Article 3 is Bo's: outside the role's filter.
    expect(r.body).toEqual({ data: { update_svc_article: { affected_rows: 1, returning: [{ id: 10, title: 'Ten!', views: 3 }] } } });
    const pk = await query('mutation { update_svc_article_by_pk(pk_columns: {id: 10}, _inc: {views: -10}) { id } }', user);
    expect(pk.body.errors[0].extensions.code).toBe('permission-error');
    expect((await titles()).find((a: any) => a.id === 10).views).toBe(3);
    const admin = await query('mutation { update_svc_author_by_pk(pk_columns: {id: 5}, _set: {rating: 2.5}) { id rating } }');
    expect(admin.body).toEqual({ data: { update_svc_author_by_pk: { id: 5, rating: 2.5 } } });
  });

  it('deletes with where and by primary key, returning the deleted rows', async () => {
    const r = await query('mutation { delete_svc_article(where: {id: {_gte: 3}}) { affected_rows returning { id } } }', user);
    expect(r.body.data.delete_svc_article.affected_rows).toBe(2);
    expect(sortById(r.body.data.delete_svc_article.returning)).toEqual([{ id: 10 }, { id: 11 }]);
    const pk = await query('mutation { delete_svc_author_by_pk(id: 5) { name } }');
    expect(pk.body).toEqual({ data: { delete_svc_author_by_pk: { name: 'Cy' } } });
    expect((await titles()).map((a: any) => a.id)).toEqual([1, 2, 3]);
  });

  it('upserts with if_matched: matching rows updated (within the update filter), the others inserted', async () => {
    const r = await query('mutation { insert_svc_author(objects: [{id: 1, name: "Ann B"}, {id: 6, name: "Di"}], if_matched: {match_columns: [id], update_columns: [name]}) { affected_rows returning { id name } } }');
    expect(r.body).toEqual({ data: { insert_svc_author: { affected_rows: 2, returning: expect.arrayContaining([{ id: 1, name: 'Ann B' }, { id: 6, name: 'Di' }]) } } });
    const filtered = await query('mutation { insert_svc_author(objects: [{id: 1, name: "Ann C"}], if_matched: {match_columns: [id], update_columns: [name], where: {name: {_eq: "nobody"}}}) { affected_rows } }');
    expect(filtered.body).toEqual({ data: { insert_svc_author: { affected_rows: 0 } } });
    await query('mutation { u: update_svc_author_by_pk(pk_columns: {id: 1}, _set: {name: "Ann"}) { id } d: delete_svc_author_by_pk(id: 6) { id } }');
  });

  it('pushes a live query again after a mutation (polled, multiplexed)', async () => {
    const clients: Client[] = [];
    try {
      const s = subscribe(connect(fx.engine, clients, user), 'subscription ($id: Int!) { svc_article_by_pk(id: $id) { title } }', { id: 2 });
      expect(await s.next(10_000)).toEqual({ data: { svc_article_by_pk: { title: 'Notes' } } });
      await query('mutation { update_svc_article_by_pk(pk_columns: {id: 2}, _set: {title: "Notes 2"}) { id } }', user);
      expect(await s.next(10_000)).toEqual({ data: { svc_article_by_pk: { title: 'Notes 2' } } });
      s.stop();
    } finally {
      await Promise.all(clients.map((c) => c.dispose()));
    }
  });

  it('delivers event triggers: rows written by a mutation (with its session) and by another client, manual invocations, one at a time under the cap', async () => {
    // Each delivery takes 300 ms: with the cap of 1, the three events of one batch are delivered one after another.
    let inFlight = 0;
    let most = 0;
    hook = await startServer(() => {
      most = Math.max(most, ++inFlight);
      setTimeout(() => inFlight--, 300);
      return { status: 200, body: '{}', delayMs: 300 };
    });
    const url = hook.url.replace('/auth', '/events');
    const bodies = () => hook!.calls.filter((c) => c.url.startsWith('/events')).map((c) => JSON.parse(c.body));
    const table = { schema: 'dbo', name: 'svc_article' };
    const created = await meta('mssql_create_event_trigger', { table, name: 'svc_article_changes', webhook: url, insert: { columns: '*' }, update: { columns: ['title'], payload: ['id', 'title'] }, delete: { columns: '*' }, enable_manual: true });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    // trigger_on_replication is true by default on SQL Server (spec "Event trigger"): not stored.
    const exported = (await fx.engine.metadata({ type: 'export_metadata', args: {} })).body;
    const stored = exported.sources.find((s: any) => s.name === 'live').tables.find((t: any) => t.table.name === 'svc_article').event_triggers[0];
    expect(stored.trigger_on_replication).toBeUndefined();

    await query('mutation { insert_svc_article_one(object: {id: 20, title: "Evented", views: 1}) { id } }', user);
    const [insert] = await until('the insert event', () => (bodies().length >= 1 ? bodies() : undefined), 15_000);
    expect(insert.event.op).toBe('INSERT');
    expect(insert.event.data).toEqual({ old: null, new: { id: 20, title: 'Evented', author_id: 1, views: 1 } });
    expect(insert.event.session_variables).toEqual({ 'x-service-role': 'user', 'x-service-user-id': '1' });
    expect(insert.table).toEqual(table);

    await batch("UPDATE dbo.svc_article SET views = 2 WHERE id = 20; UPDATE dbo.svc_article SET title = N'Evented 2' WHERE id = 20; DELETE FROM dbo.svc_article WHERE id = 20;");
    const all = await until('the update and delete events', () => (bodies().length >= 3 ? bodies() : undefined), 15_000);
    // The views-only update is not an event (title is the one column listed).
    expect(all.map((b: any) => b.event.op).sort()).toEqual(['DELETE', 'INSERT', 'UPDATE']);
    const update = all.find((b: any) => b.event.op === 'UPDATE');
    expect(update.event.data).toEqual({ old: { id: 20, title: 'Evented' }, new: { id: 20, title: 'Evented 2' } });
    expect(update.event.session_variables).toBeNull();
    expect(all.find((b: any) => b.event.op === 'DELETE').event.data.old.id).toBe(20);
    expect(most).toBe(1);

    const invoked = await meta('mssql_invoke_event_trigger', { name: 'svc_article_changes', payload: { hello: 'world' } });
    expect(invoked.status, JSON.stringify(invoked.body)).toBe(200);
    const manual = await until('the manual event', () => bodies().find((b: any) => b.event.op === 'MANUAL'), 15_000);
    expect(manual.event.data.new).toEqual({ hello: 'world' });
    expect(manual.id).toBe(invoked.body.event_id);

    expect((await meta('mssql_delete_event_trigger', { name: 'svc_article_changes' })).status).toBe(200);
  });
});
