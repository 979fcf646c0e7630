/**
 * The live SQL Server suite: SERVICE_TEST_MSSQL_CONNECTION_STRING names a SQL Server the test
 * may write to (docs/backends.md); `npm test` runs it only when that is set (vitest.config.ts). It
 * is in addition to the golden tests (test/golden/mssql), which check every statement without
 * a server: here the same kinds of requests run for real and their answers are compared.
 */
import { Connection, Request } from 'tedious';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectionTarget } from '../../src/backends/mssql/configuration.js';
import { useEngine } from '../support/fixture.js';

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

describe('a live SQL Server source', () => {
  const fx = useEngine({ SERVICE_TEST_MSSQL_CONNECTION_STRING: CONNECTION_STRING });
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
  });

  afterAll(async () => {
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

  it('applies permissions with session variables', async () => {
    const r = await query('{ svc_author { id name } }', { 'X-Service-Role': 'user', 'X-Service-User-Id': '2' });
    expect(r.body).toEqual({ data: { svc_author: [{ id: 2, name: 'Bo' }] } });
  });
});
