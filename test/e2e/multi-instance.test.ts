import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../support/db.js';
import { startEngine, type Engine } from '../support/engine.js';
import { LISTENER_APPLICATION_NAME } from '../../src/db/metadata-listener.js';
import { RemoteGraphQL } from '../support/remote-graphql.js';

// Two engine processes sharing one metadata database.
let db: TestDatabase;
let one: Engine;
let two: Engine;

beforeAll(async () => {
  db = await freshDatabase();
  await db.sql('CREATE TABLE author (id int PRIMARY KEY); CREATE TABLE article (id int PRIMARY KEY); CREATE TABLE tag (id int PRIMARY KEY)');
  one = await startEngine({ SERVICE_GRAPHQL_DATABASE_URL: db.url });
  two = await startEngine({ SERVICE_GRAPHQL_DATABASE_URL: db.url });
});

afterAll(async () => {
  await Promise.all([one?.stop(), two?.stop()]);
  await db?.drop();
});

const exportV2 = async (e: Engine) => (await e.metadata({ type: 'export_metadata', version: 2, args: {} })).body;
const tableNames = async (e: Engine): Promise<string[]> => (await exportV2(e)).metadata.sources[0].tables.map((t: { table: { name: string } }) => t.table.name);

/** Milliseconds until `e` lists `table`, polling every 20 ms. */
async function timeUntilListed(e: Engine, table: string, since: number): Promise<number> {
  while (!(await tableNames(e)).includes(table)) {
    if (Date.now() - since > 5000) throw new Error(`${table} never appeared`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return Date.now() - since;
}

describe('two engines on one metadata database', () => {
  it('a table tracked through one is listed by the other within 1 s', async () => {
    const start = Date.now();
    expect((await one.metadata({ type: 'pg_track_table', args: { table: 'author' } })).status).toBe(200);
    expect(await timeUntilListed(two, 'author', start)).toBeLessThan(1000);
  });

  it('works both ways, and both see the same resource_version', async () => {
    const start = Date.now();
    expect((await two.metadata({ type: 'pg_track_table', args: { table: 'article' } })).status).toBe(200);
    expect(await timeUntilListed(one, 'article', start)).toBeLessThan(1000);
    expect((await exportV2(one)).resource_version).toBe((await exportV2(two)).resource_version);
  });

  it('serialises concurrent writes: both land, and a stale version is refused', async () => {
    const { resource_version: v } = await exportV2(one);
    const [a, b] = await Promise.all([
      one.metadata({ type: 'pg_track_table', resource_version: v, args: { table: 'tag' } }),
      two.metadata({ type: 'pg_set_table_customization', resource_version: v, args: { table: 'author', configuration: { custom_name: 'writer' } } }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const winner = a.status === 200 ? one : two;
    expect((await exportV2(winner)).resource_version).toBe(v + 1);
  });

  it('follows a change written without a notification (polling alone, as behind a pooler)', async () => {
    const { metadata, resource_version } = await exportV2(one);
    metadata.sources[0].tables = [];
    await db.sql('UPDATE service_catalog.metadata SET metadata = $1, resource_version = $2', [JSON.stringify(metadata), resource_version + 1]);
    const start = Date.now();
    while ((await tableNames(two)).length > 0) {
      if (Date.now() - start > 1000) throw new Error('the second engine did not follow within 1 s');
      await new Promise((r) => setTimeout(r, 20));
    }
    expect((await exportV2(two)).resource_version).toBe(resource_version + 1);
  });
});

/** Milliseconds until `query` answers on `e` without errors, polling every 20 ms; its data. */
async function timeUntilServed(e: Engine, query: string, since: number): Promise<{ ms: number; data: unknown }> {
  for (;;) {
    const r = await e.post('/v1/graphql', { query });
    if (r.status === 200 && !r.body.errors) return { ms: Date.now() - since, data: r.body.data };
    if (Date.now() - since > 5000) throw new Error(`never served: ${JSON.stringify(r.body)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('what one engine did to the database, the other serves', () => {
  it('a table made by run_sql and tracked through one engine is queried through the other within 1 s', async () => {
    expect((await one.runSql('CREATE TABLE made_here (id int PRIMARY KEY, name text); INSERT INTO made_here VALUES (1, $$a$$)')).status).toBe(200);
    const start = Date.now();
    expect((await one.metadata({ type: 'pg_track_table', args: { table: 'made_here' } })).status).toBe(200);
    const { ms, data } = await timeUntilServed(two, '{ made_here { id name } }', start);
    expect(data).toEqual({ made_here: [{ id: 1, name: 'a' }] });
    expect(ms).toBeLessThan(1000);
    const inconsistent = await two.metadata({ type: 'get_inconsistent_metadata', args: {} });
    expect(inconsistent.body.inconsistent_objects).toEqual([]);
  });

  it('a column added by run_sql alone (no metadata change, no new resource_version) is served by the other', async () => {
    const { resource_version } = await exportV2(one);
    expect((await one.runSql('ALTER TABLE made_here ADD COLUMN added int DEFAULT 7')).status).toBe(200);
    const { data } = await timeUntilServed(two, '{ made_here { id added } }', Date.now());
    expect(data).toEqual({ made_here: [{ id: 1, added: 7 }] });
    expect((await exportV2(two)).resource_version).toBe(resource_version);
  });

  it('one reload_metadata reloads every engine (DDL made outside the engines)', async () => {
    await db.sql('ALTER TABLE made_here ADD COLUMN outside text DEFAULT $$o$$');
    // Neither engine has read it: the column is unknown to both.
    expect((await two.post('/v1/graphql', { query: '{ made_here { outside } }' })).body.errors).toBeDefined();
    expect((await one.metadata({ type: 'reload_metadata', args: {} })).status).toBe(200);
    const { ms, data } = await timeUntilServed(two, '{ made_here { outside } }', Date.now());
    expect(data).toEqual({ made_here: [{ outside: 'o' }] });
    expect(ms).toBeLessThan(1000);
  });
  it('one reload_remote_schema reloads every engine (a remote server that changed its schema)', async () => {
    const before = await new RemoteGraphQL('type Query { hello: String }', { hello: () => 'hi' }).start();
    const add = await one.metadata({ type: 'add_remote_schema', args: { name: 'greeter', definition: { url: before.url } } });
    expect(add.status, JSON.stringify(add.body)).toBe(200);
    await timeUntilServed(two, '{ hello }', Date.now());
    // The same URL, a new schema: neither engine knows it until one of them is asked to reload.
    await before.stop();
    const after = await new RemoteGraphQL('type Query { hello: String greeting: String }', { hello: () => 'hi', greeting: () => 'hello' }).start(before.port);
    try {
      expect((await two.post('/v1/graphql', { query: '{ greeting }' })).body.errors).toBeDefined();
      expect((await one.metadata({ type: 'reload_remote_schema', args: { name: 'greeter' } })).status).toBe(200);
      const { ms, data } = await timeUntilServed(two, '{ greeting }', Date.now());
      expect(data).toEqual({ greeting: 'hello' });
      expect(ms).toBeLessThan(1000);
    } finally {
      await two.metadata({ type: 'remove_remote_schema', args: { name: 'greeter' } });
      await after.stop();
    }
  });
});

describe('the change listener', () => {
  // Polling every 60 s: within the test only LISTEN/NOTIFY can carry a change to `reader`.
  let store: TestDatabase;
  let writer: Engine;
  let reader: Engine;
  const listenerPids = async (): Promise<number[]> =>
    (
      await store.sql(`SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1 AND query LIKE 'LISTEN%'`, [
        LISTENER_APPLICATION_NAME,
      ])
    ).rows.map((r: { pid: number }) => r.pid);
  const logged = (e: Engine, message: string) => e.logs.some((l) => l.includes(`"message":"${message}`));

  beforeAll(async () => {
    store = await freshDatabase();
    await store.sql('CREATE TABLE one (id int PRIMARY KEY); CREATE TABLE two (id int PRIMARY KEY); CREATE TABLE three (id int PRIMARY KEY)');
    writer = await startEngine({ SERVICE_GRAPHQL_DATABASE_URL: store.url });
    reader = await startEngine({ SERVICE_GRAPHQL_DATABASE_URL: store.url, SERVICE_GRAPHQL_METADATA_POLL_INTERVAL: '60000' });
  });

  afterAll(async () => {
    await Promise.all([writer?.stop(), reader?.stop()]);
    await store?.drop();
  });

  it('carries a change within 1 s without polling', async () => {
    const start = Date.now();
    expect((await writer.metadata({ type: 'pg_track_table', args: { table: 'one' } })).status).toBe(200);
    expect(await timeUntilListed(reader, 'one', start)).toBeLessThan(1000);
  });

  it('reconnects after its connection is killed, adopting a change made meanwhile and carrying later ones', async () => {
    const before = await listenerPids();
    expect(before).toHaveLength(2);
    await store.sql('SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid', [before]);
    // Made while the listeners are down or reconnecting: the check after reconnecting adopts it.
    let start = Date.now();
    expect((await writer.metadata({ type: 'pg_track_table', args: { table: 'two' } })).status).toBe(200);
    expect(await timeUntilListed(reader, 'two', start)).toBeLessThan(1000);

    while ((await listenerPids()).filter((pid) => !before.includes(pid)).length < 2) {
      if (Date.now() - start > 5000) throw new Error('the listeners did not reconnect');
      await new Promise((r) => setTimeout(r, 20));
    }
    start = Date.now();
    expect((await writer.metadata({ type: 'pg_track_table', args: { table: 'three' } })).status).toBe(200);
    expect(await timeUntilListed(reader, 'three', start)).toBeLessThan(1000);
    expect(logged(reader, 'metadata change listener disconnected')).toBe(true);
    expect(logged(reader, 'metadata change listener reconnected')).toBe(true);
  });
});
