/**
 * Rows written through the older administration APIs carry the caller's session to event
 * triggers, as a GraphQL mutation's do: `run_sql` and the data operations of `/v1/query` and
 * `/v2/query` record admin with the request's `x-service-*` headers (never the admin secret);
 * a write from outside the engine still records none.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../auth/http-server.js';
import { freshDatabase, type TestDatabase } from '../support/db.js';
import { startEngine, type Engine } from '../support/engine.js';
import { until } from '../support/events.js';

const SECRET = { 'X-Service-Admin-Secret': 'adm' };
let db: TestDatabase;
let engine: Engine;
let hook: TestServer;

/** The session variables of the event of the row with this id. */
async function sessionOf(id: number): Promise<unknown> {
  const call = await until(`the event of row ${id}`, () => hook.calls.map((c) => JSON.parse(c.body)).find((b) => b.event.data.new?.id === id));
  return call.event.session_variables;
}

beforeAll(async () => {
  db = await freshDatabase();
  await db.sql('CREATE TABLE thing (id int PRIMARY KEY, label text)');
  hook = await startServer(() => ({ status: 200, body: '{}' }));
  engine = await startEngine({ SERVICE_GRAPHQL_DATABASE_URL: db.url, SERVICE_GRAPHQL_ADMIN_SECRET: 'adm', SERVICE_GRAPHQL_EVENTS_FETCH_INTERVAL: '100' });
  expect((await engine.metadata({ type: 'pg_track_table', args: { table: 'thing' } }, SECRET)).status).toBe(200);
  const r = await engine.metadata({ type: 'pg_create_event_trigger', args: { name: 'writes', table: 'thing', webhook: hook.url, insert: { columns: '*' }, update: { columns: '*' } } }, SECRET);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
});

afterAll(async () => {
  await engine?.stop();
  await hook?.close();
  await db?.drop();
});

describe('session variables of writes through /v1/query and /v2/query', () => {
  it('a /v2/query run_sql insert records admin', async () => {
    const r = await engine.post('/v2/query', { type: 'run_sql', args: { sql: `INSERT INTO thing VALUES (1, 'sql')` } }, SECRET);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(await sessionOf(1)).toEqual({ 'x-service-role': 'admin' });
  });

  it('a /v1/query insert records admin with the other x-service-* headers sent, not the secret', async () => {
    const r = await engine.query({ type: 'insert', args: { table: 'thing', objects: [{ id: 2, label: 'dml' }] } }, { ...SECRET, 'X-Service-Role': 'admin', 'X-Service-User-Id': '42', 'X-Other': 'no' });
    expect(r.body).toEqual({ affected_rows: 1 });
    expect(await sessionOf(2)).toEqual({ 'x-service-role': 'admin', 'x-service-user-id': '42' });
  });

  it('a /v1/query run_sql and a /v2/query insert in one bulk record the session too', async () => {
    const bulk = await engine.query(
      {
        type: 'bulk',
        args: [
          { type: 'run_sql', args: { sql: `INSERT INTO thing VALUES (3, 'bulk sql')` } },
          { type: 'insert', args: { table: 'thing', objects: [{ id: 4 }] } },
        ],
      },
      { ...SECRET, 'X-Service-Org': 'o1' },
    );
    expect(bulk.status, JSON.stringify(bulk.body)).toBe(200);
    expect(await sessionOf(3)).toEqual({ 'x-service-role': 'admin', 'x-service-org': 'o1' });
    expect(await sessionOf(4)).toEqual({ 'x-service-role': 'admin', 'x-service-org': 'o1' });
    const v2 = await engine.post('/v2/query', { type: 'insert', args: { table: 'thing', objects: [{ id: 5 }] } }, SECRET);
    expect(v2.body).toEqual({ affected_rows: 1 });
    expect(await sessionOf(5)).toEqual({ 'x-service-role': 'admin' });
  });

  it('a write from outside the engine records none', async () => {
    await db.sql(`INSERT INTO thing VALUES (6, 'outside')`);
    expect(await sessionOf(6)).toBeNull();
  });
});
