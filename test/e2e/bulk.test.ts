import { beforeAll, describe, expect, it } from 'vitest';
import { useEngine } from '../support/fixture.js';

const fx = useEngine();

beforeAll(async () => {
  await fx.db.sql('CREATE TABLE author (id serial PRIMARY KEY, name text)');
});

const exportV2 = async () => (await fx.engine.metadata({ type: 'export_metadata', version: 2, args: {} })).body;
const tableExists = async (name: string) => (await fx.db.sql('SELECT to_regclass($1) AS t', [name])).rows[0].t !== null;

describe('bulk', () => {
  it('applies every step and answers each result in order', async () => {
    const r = await fx.engine.query({
      type: 'bulk',
      args: [
        { type: 'run_sql', args: { sql: 'CREATE TABLE book (id serial PRIMARY KEY, title text)' } },
        { type: 'track_table', args: { name: 'book' } },
        { type: 'insert', args: { table: 'book', objects: [{ title: 'A' }] } },
      ],
    });
    expect(r).toEqual({ status: 200, body: [{ result_type: 'CommandOk', result: null }, { message: 'success' }, { affected_rows: 1 }] });
    expect((await exportV2()).metadata.sources[0].tables).toEqual([{ table: { schema: 'public', name: 'book' } }]);
  });

  it('leaves nothing applied when a step fails half-way, run_sql included', async () => {
    const before = await exportV2();
    const r = await fx.engine.query({
      type: 'bulk',
      args: [
        { type: 'run_sql', args: { sql: 'CREATE TABLE shelf (id serial PRIMARY KEY); INSERT INTO author (name) VALUES ($$x$$)' } },
        { type: 'track_table', args: { name: 'shelf' } },
        { type: 'track_table', args: { name: 'author' } },
        { type: 'track_table', args: { name: 'no_such_table' } },
        { type: 'track_table', args: { name: 'book' } },
      ],
    });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('not-exists');
    expect(r.body.path).toBe('$.args[3].args');
    expect(await exportV2()).toEqual(before);
    expect(await tableExists('shelf')).toBe(false);
    expect((await fx.db.sql('SELECT count(*)::int AS n FROM author')).rows[0].n).toBe(0);
  });

  it('reports the path of a malformed step', async () => {
    const r = await fx.engine.metadata({ type: 'bulk', args: [{ type: 'export_metadata', args: {} }, { args: {} }] });
    expect(r.body).toEqual({ path: '$.args[1]', error: 'key "type" not found', code: 'parse-failed' });
    const notList = await fx.engine.metadata({ type: 'bulk', args: {} });
    expect(notList.body).toMatchObject({ path: '$.args', code: 'parse-failed' });
  });

  it('refuses an operation the endpoint does not know, inside the bulk', async () => {
    const r = await fx.engine.metadata({ type: 'bulk', args: [{ type: 'pg_track_table', args: { table: 'author' } }, { type: 'select', args: {} }] });
    expect(r).toEqual({ status: 400, body: { path: '$.args[1]', error: 'unknown metadata command "select"; "select" was not recognized as a valid backend name', code: 'parse-failed' } });
    expect((await exportV2()).metadata.sources[0].tables).toHaveLength(1);
  });

  it('runs nested bulks', async () => {
    const r = await fx.engine.metadata({ type: 'bulk', args: [{ type: 'bulk', args: [{ type: 'pg_track_table', args: { table: 'author' } }] }] });
    expect(r).toEqual({ status: 200, body: [[{ message: 'success' }]] });
  });
});
