import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../support/db.js';
import { startEngine, type Engine } from '../support/engine.js';

let db: TestDatabase;
let engine: Engine;

beforeAll(async () => {
  db = await freshDatabase();
  await db.sql('CREATE TABLE a (id int PRIMARY KEY); CREATE TABLE b (id int PRIMARY KEY); CREATE TABLE c (id int PRIMARY KEY)');
});

afterAll(async () => {
  await engine?.stop();
  await db?.drop();
});

const tableNames = async (e: Engine) =>
  (await e.metadata({ type: 'export_metadata', args: {} })).body.sources[0].tables.map((t: { table: { name: string } }) => t.table.name);

describe('an acknowledged change', () => {
  it('survives kill -9 of the engine', async () => {
    engine = await startEngine({ SERVICE_GRAPHQL_DATABASE_URL: db.url });
    for (const table of ['a', 'b', 'c']) {
      expect((await engine.metadata({ type: 'pg_track_table', args: { table } })).status).toBe(200);
    }
    const { resource_version } = (await engine.metadata({ type: 'export_metadata', version: 2, args: {} })).body;
    // Killed the moment the last answer arrived: nothing is left to flush.
    expect(await engine.stop('SIGKILL')).toBeNull();

    engine = await startEngine({ SERVICE_GRAPHQL_DATABASE_URL: db.url });
    expect(await tableNames(engine)).toEqual(['a', 'b', 'c']);
    expect((await engine.metadata({ type: 'export_metadata', version: 2, args: {} })).body.resource_version).toBe(resource_version);
  });

  it('is durable together with the SQL of its bulk', async () => {
    const r = await engine.query({
      type: 'bulk',
      args: [
        { type: 'run_sql', args: { sql: 'CREATE TABLE d (id int PRIMARY KEY)' } },
        { type: 'track_table', args: { name: 'd' } },
      ],
    });
    expect(r.status).toBe(200);
    await engine.stop('SIGKILL');
    engine = await startEngine({ SERVICE_GRAPHQL_DATABASE_URL: db.url });
    expect(await tableNames(engine)).toEqual(['a', 'b', 'c', 'd']);
    expect((await engine.metadata({ type: 'get_inconsistent_metadata', args: {} })).body.is_consistent).toBe(true);
  });
});
