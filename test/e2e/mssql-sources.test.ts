/**
 * SQL Server sources without a SQL Server: configuration validated (4xx with the JSON path,
 * nothing stored), the driver (tedious) run for real up to the network, so an unreachable
 * server is refused by mssql_add_source and is an inconsistent source with the driver's reason
 * in a replaced document, while the pg sources keep answering. A document mixing pg, citus,
 * mssql and bigquery sources round-trips through replace_metadata. The live suite against a real
 * SQL Server is described in docs/backends.md.
 */
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useEngine } from '../support/fixture.js';

let hangUp: Server;
let hangUpPort = 0;

beforeAll(async () => {
  // A "server" that accepts and closes every connection: the driver fails its handshake.
  hangUp = createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => hangUp.listen(0, '127.0.0.1', resolve));
  hangUpPort = (hangUp.address() as { port: number }).port;
});
afterAll(() => new Promise<void>((resolve) => hangUp.close(() => resolve())));

const fx = useEngine({ MSSQL_NOWHERE: 'Server=tcp:127.0.0.1,1;Database=shop;User Id=sa;Password=x;Encrypt=false;Connection Timeout=3' });
const meta = (type: string, args: unknown) => fx.engine.metadata({ type, args });
const exported = async () => (await meta('export_metadata', {})).body;
const unreachable = { connection_info: { connection_string: { from_env: 'MSSQL_NOWHERE' }, pool_settings: { max_connections: 4, idle_timeout: 10 } } };

beforeAll(async () => {
  await fx.db.sql(`CREATE TABLE book (id serial PRIMARY KEY, title text); INSERT INTO book (title) VALUES ('Dune');`);
  expect((await meta('pg_track_table', { table: 'book' })).status).toBe(200);
});

describe('mssql_add_source validation', () => {
  const cases: [string, unknown, string, string][] = [
    ['a missing connection string', { connection_info: {} }, '$.args.configuration.connection_info', 'connection_string'],
    ['a connection string without a server', { connection_info: { connection_string: 'Database=x;Uid=sa' } }, '$.args.configuration.connection_info.connection_string', 'no Server'],
    ['unterminated braces', { connection_info: { connection_string: 'Server=h;Pwd={abc' } }, '$.args.configuration.connection_info.connection_string', 'unterminated braces'],
    ['a bad timeout', { connection_info: { connection_string: 'Server=h;Connection Timeout=soon' } }, '$.args.configuration.connection_info.connection_string', 'not a number'],
    ['zero connections', { connection_info: { connection_string: 'Server=h', pool_settings: { max_connections: 0 } } }, '$.args.configuration.connection_info.pool_settings.max_connections', 'at least 1'],
    ['an unknown pool setting', { connection_info: { connection_string: 'Server=h', pool_settings: { retries: 2 } } }, '$.args.configuration.connection_info.pool_settings', 'retries'],
    ['a from_env without its name', { connection_info: { connection_string: { env: 'X' } } }, '$.args.configuration.connection_info.connection_string', ''],
  ];
  for (const [what, configuration, path, message] of cases) {
    it(`refuses ${what} with its path and stores nothing`, async () => {
      const before = await exported();
      const r = await meta('mssql_add_source', { name: 'shop', configuration });
      expect(r.status).toBe(400);
      expect(r.body.path).toBe(path);
      expect(r.body.error).toContain(message);
      expect(await exported()).toEqual(before);
    });
  }
});

describe('an unreachable SQL Server', () => {
  it('is refused by mssql_add_source with the reason, nothing stored', async () => {
    const before = await exported();
    const r = await meta('mssql_add_source', { name: 'shop', configuration: unreachable });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('invalid-configuration');
    expect(r.body.error).toMatch(/"shop".*(ECONNREFUSED|connect)/i);
    expect(await exported()).toEqual(before);
  });

  it('a server that hangs up is refused with the driver reason', async () => {
    const configuration = { connection_info: { connection_string: `Server=127.0.0.1,${hangUpPort};Database=x;Uid=sa;Pwd=x;Encrypt=no` } };
    const r = await meta('mssql_add_source', { name: 'shop', configuration });
    expect(r.status).toBe(400);
    expect(r.body.error).toContain('"shop"');
  });

  it('is an inconsistent source of a replaced document mixing every kind, which round-trips; pg keeps answering', async () => {
    const orderTrigger = { name: 'orders_changed', definition: { enable_manual: false, insert: { columns: '*' } }, retry_conf: { num_retries: 0, interval_sec: 10, timeout_sec: 60 }, webhook: 'http://localhost:1/orders', trigger_on_replication: false };
    const current = await exported();
    const document = {
      ...current,
      sources: [
        ...current.sources,
        { name: 'cluster', kind: 'citus', tables: [], configuration: { connection_info: { database_url: fx.db.url, isolation_level: 'read-committed', use_prepared_statements: false } } },
        // trigger_on_replication false is kept: true is SQL Server's default (spec "Event trigger").
        { name: 'shop', kind: 'mssql', tables: [{ table: { schema: 'dbo', name: 'orders' }, event_triggers: [orderTrigger] }], configuration: unreachable },
        { name: 'warehouse', kind: 'bigquery', tables: [], configuration: { service_account: { from_env: 'BQ_SA' }, project_id: 'p', datasets: 'd' } },
      ],
    };
    const r = await meta('replace_metadata', { metadata: document, allow_inconsistent_metadata: true });
    expect(r.status).toBe(200);
    const inconsistent = (await meta('get_inconsistent_metadata', {})).body;
    expect(inconsistent.is_consistent).toBe(false);
    const byName = Object.fromEntries(inconsistent.inconsistent_objects.map((o: any) => [o.name, o.reason]));
    expect(Object.keys(byName).sort()).toEqual(['source shop', 'source warehouse']);
    expect(byName['source shop']).toMatch(/^Inconsistent object: could not connect to source "shop": .*(ECONNREFUSED|connect)/i);
    expect(byName['source warehouse']).toContain('environment variable "BQ_SA" not set');
    expect(await exported()).toEqual(document);
    const again = await meta('replace_metadata', { metadata: await exported(), allow_inconsistent_metadata: true });
    expect(again.status).toBe(200);
    expect(await exported()).toEqual(document);
    const q = await fx.engine.post('/v1/graphql', { query: '{ book { title } }' });
    expect(q.body).toEqual({ data: { book: [{ title: 'Dune' }] } });
  });

  it('is dropped with mssql_drop_source', async () => {
    expect((await meta('mssql_drop_source', { name: 'shop' })).status).toBe(200);
    expect((await exported()).sources.map((s: any) => s.name)).toEqual(['default', 'cluster', 'warehouse']);
  });
});
