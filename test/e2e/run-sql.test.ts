import { beforeAll, describe, expect, it } from 'vitest';
import { useEngine } from '../support/fixture.js';

const fx = useEngine();

beforeAll(async () => {
  await fx.db.sql(`
    CREATE TABLE author (id serial PRIMARY KEY, name text, age integer);
    INSERT INTO author (name, age) VALUES ('Ann', 30), ('Bob', NULL);
  `);
  await fx.engine.metadata({
    type: 'pg_track_table',
    args: { table: 'author', configuration: { column_config: { name: { custom_name: 'fullName' } } } },
  });
});

const tables = async () => (await fx.engine.metadata({ type: 'export_metadata', args: {} })).body.sources[0].tables;

describe('run_sql results', () => {
  it('answers rows as text with the column names first (TuplesOk)', async () => {
    const r = await fx.engine.runSql('SELECT id, name, age, true AS flag FROM author ORDER BY id');
    expect(r).toEqual({ status: 200, body: { result_type: 'TuplesOk', result: [['id', 'name', 'age', 'flag'], ['1', 'Ann', '30', 't'], ['2', 'Bob', null, 't']] } });
  });

  it('answers CommandOk for statements without rows, and the last statement decides', async () => {
    expect((await fx.engine.runSql('CREATE TABLE scratch (x int)')).body).toEqual({ result_type: 'CommandOk', result: null });
    expect((await fx.engine.runSql('SELECT 1 AS a; DROP TABLE scratch')).body).toEqual({ result_type: 'CommandOk', result: null });
  });

  it('reports a PostgreSQL error with its details in internal', async () => {
    const r = await fx.engine.runSql('SELECT * FROM nowhere');
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      path: '$.args',
      error: 'query execution failed',
      code: 'postgres-error',
      internal: {
        statement: 'SELECT * FROM nowhere',
        prepared: false,
        error: { exec_status: 'FatalError', hint: null, message: 'relation "nowhere" does not exist', status_code: '42P01', description: null },
        arguments: [],
      },
    });
  });

  it('works on /v1/query too', async () => {
    const r = await fx.engine.query({ type: 'run_sql', args: { sql: 'SELECT 2 AS two' } });
    expect(r.body).toEqual({ result_type: 'TuplesOk', result: [['two'], ['2']] });
  });

  it('validates its arguments', async () => {
    expect((await fx.engine.post('/v2/query', { type: 'run_sql', args: {} })).body).toEqual({ path: '$.args', error: 'key "sql" not found', code: 'parse-failed' });
    expect((await fx.engine.runSql('SELECT 1', { source: 'nope' })).body).toEqual({
      path: '$.args',
      error: 'source with name "nope" does not exist',
      code: 'not-exists',
    });
  });
});

describe('read_only', () => {
  it('runs reads and refuses writes', async () => {
    expect((await fx.engine.runSql('SELECT count(*) AS n FROM author', { read_only: true })).body.result).toEqual([['n'], ['2']]);
    const w = await fx.engine.runSql('DELETE FROM author', { read_only: true });
    expect(w.status).toBe(400);
    expect(w.body.internal.error.status_code).toBe('25006');
    expect((await fx.db.sql('SELECT count(*)::int AS n FROM author')).rows[0].n).toBe(2);
  });
});

describe('DDL on tracked objects', () => {
  it('carries a column rename into the metadata', async () => {
    expect((await fx.engine.runSql('ALTER TABLE author RENAME COLUMN name TO full_name')).status).toBe(200);
    expect(await tables()).toEqual([{ table: { schema: 'public', name: 'author' }, configuration: { column_config: { full_name: { custom_name: 'fullName' } } } }]);
  });

  it('carries a table rename into the metadata', async () => {
    expect((await fx.engine.runSql('ALTER TABLE author RENAME TO writer')).status).toBe(200);
    expect((await tables())[0].table).toEqual({ schema: 'public', name: 'writer' });
  });

  it('untracks a dropped table', async () => {
    await fx.engine.runSql('CREATE TABLE doomed (id int PRIMARY KEY)');
    await fx.engine.metadata({ type: 'pg_track_table', args: { table: 'doomed' } });
    expect((await fx.engine.runSql('DROP TABLE doomed')).status).toBe(200);
    expect((await tables()).map((t: any) => t.table.name)).toEqual(['writer']);
  });

  it('refuses DDL that breaks a tracked object, unless cascade is set', async () => {
    await fx.engine.runSql('CREATE TABLE entry (id serial PRIMARY KEY); CREATE FUNCTION entries() RETURNS SETOF entry AS $$ SELECT * FROM entry $$ LANGUAGE sql STABLE');
    await fx.engine.metadata({ type: 'pg_track_table', args: { table: 'entry' } });
    expect((await fx.engine.metadata({ type: 'pg_track_function', args: { function: 'entries' } })).status).toBe(200);

    const refused = await fx.engine.runSql('DROP FUNCTION entries()');
    expect(refused.status).toBe(400);
    expect(refused.body.error).toContain('function entries');
    expect((await fx.db.sql(`SELECT to_regproc('entries') AS f`)).rows[0].f).not.toBeNull();

    const cascaded = await fx.engine.runSql('DROP FUNCTION entries()', { cascade: true });
    expect(cascaded.status).toBe(200);
    const m = (await fx.engine.metadata({ type: 'export_metadata', args: {} })).body;
    expect(m.sources[0].functions).toBeUndefined();
  });

  it('leaves the check to reload_metadata with check_metadata_consistency false', async () => {
    expect((await fx.engine.runSql('ALTER TABLE entry RENAME TO entry2', { check_metadata_consistency: false })).status).toBe(200);
    expect((await tables()).map((t: any) => t.table.name)).toContain('entry');
    const r = await fx.engine.metadata({ type: 'reload_metadata', args: {} });
    expect(r.body.inconsistent_objects).toEqual([expect.objectContaining({ name: 'table entry in source default' })]);
  });
});
