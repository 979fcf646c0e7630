/**
 * The executor against fake source connections (no database): dependency order,
 * concurrency, joins, mutation transactions and the error shapes.
 */
import { describe, expect, it } from 'vitest';
import { RequestError } from '../../src/errors/request.js';
import type { RunStatement, SourceConnection } from '../../src/backends/faces/runtime.js';
import { loadEveryBackend, backendFor } from '../../src/backends/registry.js';
import { ExecutionError } from '../../src/errors/execution.js';
import { execute } from '../../src/execute/executor.js';
import { ApiError } from '../../src/errors/admin.js';
import type { Plan, PlanStep, StepJoin, StepRun } from '../../src/protocol/plan.js';
import type { ParamSource } from '../../src/sql/fragment.js';
import { catalogType as mssqlType } from '../../src/backends/mssql/introspect.js';
import { TRUE } from '../../src/ir/boolexp.js';
import type { RootField } from '../../src/ir/select.js';

// The backends a thread uses are loaded first (backends/registry.ts).
await loadEveryBackend();

type Rows = Record<string, string | null>[];
type Answer = string | Rows | Error | ((values: unknown[]) => string | Rows | Error);

/** A source whose statements answer from a table of texts; it records what ran, when, and in which transaction. */
class FakeConnection implements SourceConnection {
  readonly log: string[] = [];
  readonly values = new Map<string, unknown[]>();
  /** Statements held until released (to observe what starts while another is still running). */
  readonly held = new Map<string, () => void>();

  constructor(private readonly answers: Record<string, Answer>) {}

  hold(text: string): void {
    this.held.set(text, () => {});
  }

  release(text: string): void {
    this.held.get(text)!();
  }

  private async answer(text: string, values: unknown[]): Promise<string | Rows> {
    this.log.push(`start ${text}`);
    this.values.set(text, values);
    if (this.held.has(text)) await new Promise<void>((resolve) => this.held.set(text, resolve));
    this.log.push(`end ${text}`);
    const a = this.answers[text];
    const result = typeof a === 'function' ? a(values) : a;
    if (result === undefined) throw new Error(`no answer for ${text}`);
    if (result instanceof Error) throw result;
    return result;
  }

  async json(text: string, values: unknown[]): Promise<string> {
    return (await this.answer(text, values)) as string;
  }

  async rows(text: string, values: unknown[]): Promise<Rows> {
    return (await this.answer(text, values)) as Rows;
  }

  async transaction<T>(fn: (run: RunStatement) => Promise<T>, sessionJson?: string): Promise<T> {
    this.log.push(sessionJson === undefined ? 'BEGIN' : `BEGIN ${sessionJson}`);
    try {
      const result = await fn((text, values) => this.rows(text, values));
      this.log.push('COMMIT');
      return result;
    } catch (e) {
      this.log.push('ROLLBACK');
      throw e;
    }
  }

  async explain(): Promise<string[]> {
    return [];
  }

  async close(): Promise<void> {}
}

/** A PostgreSQL error as `pg` raises it. */
const pgError = (code: string, message: string) => Object.assign(new Error(message), { severity: 'ERROR', code });

const sqlRun = (text: string, params: ParamSource[] = []): StepRun => ({ kind: 'sql', source: 'db', text, params, statement: null });
const step = (id: number, run: StepRun, path: string[], dependsOn: number[] = []): PlanStep => ({ id, dependsOn, run, output: { kind: 'response', path } });
const joinStep = (id: number, text: string, join: StepJoin): PlanStep => ({ id, dependsOn: [join.parent], run: sqlRun(text, [{ kind: 'join-keys' }]), output: { kind: 'join', join } });
const mutation = (text: string | string[], check: 'insert' | 'update' | 'delete' = 'insert'): StepRun => ({
  kind: 'mutation',
  source: 'db',
  errorPath: `$.selectionSet.${check}`,
  ops: (Array.isArray(text) ? text : [text]).map((t, i, all) => ({ text: t, params: [], statement: null, final: i === all.length - 1 })),
  list: false,
  check,
});

const plan = (steps: PlanStep[], operation: Plan['operation'] = 'query'): Plan => ({
  queryHash: 'h',
  size: { depth: 1, nodes: 1 },
  operation,
  steps,
  variables: [],
  shape: [],
  sessionVariables: [],
  reads: { everything: false, sources: [], tables: [] },
});

const run = (p: Plan, db: FakeConnection, variables: Record<string, unknown> = {}) => execute(p, { variables, session: { 'x-service-role': 'user' } }, new Map([['db', { connection: db, backend: backendFor('postgres')! }]]));

/** Lets every pending promise callback run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('executor: independent steps', () => {
  it('runs root fields concurrently and splices their text unparsed, namespaces as objects', async () => {
    const db = new FakeConnection({ a: '[ {"x" : 1} ]', b: '{"y":2.50}' });
    db.hold('a');
    const p = plan([step(0, sqlRun('a'), ['a']), step(1, sqlRun('b'), ['ns', 'b']), step(2, { kind: 'constant', json: '"query_root"' }, ['__typename'])]);
    const done = run(p, db);
    await settle();
    // b started (and finished) while a was still running.
    expect(db.log).toEqual(['start a', 'start b', 'end b']);
    db.release('a');
    // The database's spacing and number text survive: nothing was parsed.
    expect(await done).toBe('{"data":{"a":[ {"x" : 1} ],"ns":{"b":{"y":2.50}},"__typename":"query_root"}}');
  });

  it('binds variables and the session as parameters', async () => {
    const db = new FakeConnection({ q: 'null' });
    const p = { ...plan([step(0, sqlRun('q', [{ kind: 'variable', name: 'id', path: [], coerce: 'scalar' }, { kind: 'session' }]), ['q'])]), variables: [{ name: 'id', type: 'Int', hasDefault: true, defaultValue: 7 }] };
    expect(await run(p, db)).toBe('{"data":{"q":null}}');
    expect(db.values.get('q')).toEqual(['7', '{"x-service-role":"user"}']);
  });

  it('waits for the steps a step depends on', async () => {
    const db = new FakeConnection({ first: '1', second: '2', other: '3' });
    db.hold('first');
    const p = plan([step(0, sqlRun('first'), ['a']), step(1, sqlRun('second'), ['b'], [0]), step(2, sqlRun('other'), ['c'])]);
    const done = run(p, db);
    await settle();
    expect(db.log).toEqual(['start first', 'start other', 'end other']);
    db.release('first');
    expect(await done).toBe('{"data":{"a":1,"b":2,"c":3}}');
    expect(db.log.slice(3)).toEqual(['end first', 'start second', 'end second']);
  });

  it('refuses a plan whose steps are out of dependency order before running any', async () => {
    const db = new FakeConnection({ a: '1', b: '2' });
    await expect(run(plan([step(0, sqlRun('a'), ['a'], [1]), step(1, sqlRun('b'), ['b'])]), db)).rejects.toThrow('out of order');
    expect(db.log).toEqual([]);
  });

  it('reports a database error as an execution error chosen by SQLSTATE', async () => {
    const db = new FakeConnection({ bad: pgError('22P02', 'invalid input syntax for type integer: "x"') });
    const e = await run(plan([step(0, sqlRun('bad'), ['a'])]), db).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ExecutionError);
    expect((e as ExecutionError).error).toMatchObject({ code: 'data-exception', path: '$', message: 'invalid input syntax for type integer: "x"' });
  });

  it('refuses a mutation field in a query and a source it has no connection to', async () => {
    const db = new FakeConnection({});
    await expect(run(plan([step(0, mutation('m'), ['m'])]), db)).rejects.toThrow(new RequestError('mutation fields are only allowed in a mutation operation', '$'));
    await expect(run(plan([step(0, { ...sqlRun('q'), source: 'other' } as StepRun, ['q'])]), db)).rejects.toThrow('source "other" is not available');
  });
});

describe('executor: joins', () => {
  const authors = '[{"id":1,"name":"A","__k":10},{"id":2,"name":"B","__k":20},{"id":3,"name":"C","__k":10},{"id":4,"name":"D","__k":null}]';
  const join: StepJoin = { parent: 0, at: [], field: 'publisher', keys: [{ parent: '__k', child: 'publisher_id' }], hidden: ['__k'] };

  it('asks the child once per distinct key tuple and attaches each value to its parent objects', async () => {
    const db = new FakeConnection({ authors, publishers: '[{"name":"P10"},{"name":"P20"}]', count: '5' });
    const p = plan([step(0, sqlRun('authors'), ['authors']), joinStep(1, 'publishers', join), step(2, sqlRun('count'), ['count'])]);
    expect(JSON.parse(await run(p, db))).toEqual({
      data: {
        authors: [
          { id: 1, name: 'A', publisher: { name: 'P10' } },
          { id: 2, name: 'B', publisher: { name: 'P20' } },
          { id: 3, name: 'C', publisher: { name: 'P10' } },
          // A null key: no tuple, a null field.
          { id: 4, name: 'D', publisher: null },
        ],
        count: 5,
      },
    });
    expect(db.values.get('publishers')).toEqual(['[{"publisher_id":10},{"publisher_id":20}]']);
  });

  it('keeps the text of steps no join reads', async () => {
    const db = new FakeConnection({ authors, publishers: '[{"name":"P10"},{"name":"P20"}]', count: '5.0' });
    const p = plan([step(0, sqlRun('authors'), ['authors']), joinStep(1, 'publishers', join), step(2, sqlRun('count'), ['count'])]);
    expect(await run(p, db)).toMatch(/,"count":5\.0}}$/);
  });

  it('walks lists and objects down to the join point, with several keys', async () => {
    const parent = '{"nodes":[{"a":{"x":1,"y":"u"}},{"a":{"x":2,"y":"v"}},{"a":null}],"aggregate":{"count":3}}';
    const db = new FakeConnection({ parent, child: (values) => (values[0] === '[{"cx":1,"cy":"u"},{"cx":2,"cy":"v"}]' ? '[[1],[]]' : new Error(`unexpected keys ${String(values[0])}`)) });
    const p = plan([step(0, sqlRun('parent'), ['agg']), joinStep(1, 'child', { parent: 0, at: ['nodes', 'a'], field: 'remote', keys: [{ parent: 'x', child: 'cx' }, { parent: 'y', child: 'cy' }], hidden: [] })]);
    expect(JSON.parse(await run(p, db))).toEqual({
      data: { agg: { nodes: [{ a: { x: 1, y: 'u', remote: [1] } }, { a: { x: 2, y: 'v', remote: [] } }, { a: null }], aggregate: { count: 3 } } },
    });
  });

  it("joins SQL Server's answers: a FOR JSON parent and the join statement's one value per key tuple", async () => {
    // The join step's statement as the mssql backend writes it (test/golden/mssql has its text).
    const int = mssqlType('int', -1, 0, 0);
    const text = mssqlType('nvarchar', 400, 0, 0);
    const rows = { table: { schema: 'dbo', name: 'author' }, permission: TRUE, where: TRUE, orderBy: [], distinctOn: [], limit: null, offset: null, limitCap: null };
    const field: RootField = { kind: 'join', alias: 'writer', source: 'db', rows, fields: [{ kind: 'column', alias: 'name', column: 'name', type: text, visibleWhen: null, jsonPath: null }], keys: [{ child: 'author_id', column: 'id', type: int }], many: false };
    const statement = backendFor('mssql')!.translateRootField(field, { stringifyNumeric: false });
    expect(statement.params).toEqual([{ kind: 'join-keys' }]);
    // FOR JSON PATH, INCLUDE_NULL_VALUES rows; the join answers N'[' + STRING_AGG(...) + N']', 'null' for a tuple without a row.
    const db = new FakeConnection({ articles: '[{"title":"T1","__writer_author_id":1},{"title":"T2","__writer_author_id":2},{"title":"T3","__writer_author_id":1}]', [statement.text]: '[{"name":"Ann"},null]' });
    const writer: StepJoin = { parent: 0, at: [], field: 'writer', keys: [{ parent: '__writer_author_id', child: 'author_id' }], hidden: ['__writer_author_id'] };
    const p = plan([step(0, sqlRun('articles'), ['article']), joinStep(1, statement.text, writer)]);
    const out = await execute(p, { variables: {}, session: { 'x-service-role': 'admin' } }, new Map([['db', { connection: db, backend: backendFor('mssql')! }]]));
    expect(JSON.parse(out)).toEqual({ data: { article: [{ title: 'T1', writer: { name: 'Ann' } }, { title: 'T2', writer: null }, { title: 'T3', writer: { name: 'Ann' } }] } });
    expect(db.values.get(statement.text)).toEqual(['[{"author_id":1},{"author_id":2}]']);
  });

  it('does not run a child with no parent row to join', async () => {
    const db = new FakeConnection({ authors: '[]' });
    const p = plan([step(0, sqlRun('authors'), ['authors']), joinStep(1, 'publishers', join)]);
    expect(await run(p, db)).toBe('{"data":{"authors":[]}}');
    expect(db.log).toEqual(['start authors', 'end authors']);
  });

  it('joins a grandchild into the child values it attached', async () => {
    const db = new FakeConnection({
      authors: '[{"id":1,"__k":10},{"id":2,"__k":10}]',
      publishers: '[{"name":"P10","city_id":7}]',
      cities: '[{"name":"Lyon"}]',
    });
    const p = plan([
      step(0, sqlRun('authors'), ['authors']),
      joinStep(1, 'publishers', join),
      joinStep(2, 'cities', { parent: 1, at: [], field: 'city', keys: [{ parent: 'city_id', child: 'id' }], hidden: ['city_id'] }),
    ]);
    expect(JSON.parse(await run(p, db))).toEqual({
      data: {
        authors: [
          { id: 1, publisher: { name: 'P10', city: { name: 'Lyon' } } },
          { id: 2, publisher: { name: 'P10', city: { name: 'Lyon' } } },
        ],
      },
    });
    expect(db.values.get('cities')).toEqual(['[{"id":7}]']);
  });

  it('fails when a child answers a different number of values than key tuples', async () => {
    const db = new FakeConnection({ authors, publishers: '[{"name":"P10"}]' });
    const p = plan([step(0, sqlRun('authors'), ['authors']), joinStep(1, 'publishers', join)]);
    await expect(run(p, db)).rejects.toThrow('join step returned 1 values for 2 key tuples');
  });

  it('reports a child database error as an execution error', async () => {
    const db = new FakeConnection({ authors, publishers: pgError('42703', 'column "nope" does not exist') });
    const p = plan([step(0, sqlRun('authors'), ['authors']), joinStep(1, 'publishers', join)]);
    await expect(run(p, db)).rejects.toBeInstanceOf(ExecutionError);
  });
});

describe('executor: mutations', () => {
  const chain = (...runs: StepRun[]) => plan(runs.map((r, i) => step(i, r, [`f${i}`], r.kind === 'mutation' && i > 0 ? [i - 1] : [])), 'mutation');

  it('runs the fields in order in one transaction, constants where they stand', async () => {
    const db = new FakeConnection({ m1: [{ root: '{"id":1}' }], m2a: [{ id: '5' }], m2b: [{ root: '{"id":2}' }] });
    db.hold('m1');
    const p = plan([step(0, mutation('m1'), ['a']), step(1, { kind: 'constant', json: '"mutation_root"' }, ['t']), step(2, mutation(['m2a', 'm2b']), ['b'], [0])], 'mutation');
    const done = run(p, db);
    await settle();
    expect(db.log).toEqual(['BEGIN', 'start m1']);
    db.release('m1');
    expect(await done).toBe('{"data":{"a":{"id":1},"t":"mutation_root","b":{"id":2}}}');
    expect(db.log).toEqual(['BEGIN', 'start m1', 'end m1', 'start m2a', 'end m2a', 'start m2b', 'end m2b', 'COMMIT']);
  });

  it('runs one field of one statement without a transaction', async () => {
    const db = new FakeConnection({ m: [{ root: '{"affected_rows":1}' }] });
    expect(await run(chain(mutation('m')), db)).toBe('{"data":{"f0":{"affected_rows":1}}}');
    expect(db.log).toEqual(['start m', 'end m']);
  });

  it('runs it in a transaction carrying the session on a source with event triggers', async () => {
    const db = new FakeConnection({ m: [{ root: '{"affected_rows":1}' }] });
    const connections = new Map([['db', { connection: db, backend: backendFor('postgres')!, capturesEvents: true }]]);
    await execute(chain(mutation('m')), { variables: {}, session: { 'x-service-role': 'user' } }, connections);
    expect(db.log).toEqual(['BEGIN {"x-service-role":"user"}', 'start m', 'end m', 'COMMIT']);
  });

  it('rolls back and stops at a failed permission check', async () => {
    const db = new FakeConnection({ m1: [{ root: '{}' }], m2: [{ root: '{}', __check: 'f' }], m3: [{ root: '{}' }] });
    const e = await run(chain(mutation('m1'), mutation('m2', 'update'), mutation('m3')), db).catch((x: unknown) => x);
    expect(e).toEqual(new ApiError(400, 'permission-error', 'Check constraint violation. update check constraint failed', '$'));
    expect(db.log).toEqual(['BEGIN', 'start m1', 'end m1', 'start m2', 'end m2', 'ROLLBACK']);
  });

  it('maps the check the database raises and other database errors to the field', async () => {
    const check = new FakeConnection({ m: pgError('22P02', 'invalid input syntax for type integer: "service-permission-check-failed:0"') });
    await expect(run(chain(mutation('m', 'delete')), check)).rejects.toThrow('Check constraint violation. delete check constraint failed');
    const unique = new FakeConnection({ m: pgError('23505', 'duplicate key value violates unique constraint "a_pkey"') });
    const e = (await run(chain(mutation('m')), unique).catch((x: unknown) => x)) as ApiError;
    expect(e).toMatchObject({ status: 400, code: 'constraint-violation', path: '$.selectionSet.insert.args', message: 'Uniqueness violation. duplicate key value violates unique constraint "a_pkey"' });
  });

  it('passes earlier statements rows to later ones and lists the roots of a list field', async () => {
    const db = new FakeConnection({ ins: [{ id: '3' }, { id: '4' }], r1: (v) => [{ root: `{"n":${String(v[0])},"ids":${JSON.stringify(v[1])},"affected":${String(v[2])}}` }], r2: [{ root: '{"n":2}' }] });
    const field: StepRun = {
      kind: 'mutation',
      source: 'db',
      errorPath: '$.selectionSet.u',
      ops: [
        { text: 'ins', params: [], statement: null, final: false },
        { text: 'r1', params: [{ kind: 'ref', op: 0, row: 1, column: 'id' }, { kind: 'collect', ops: [0], column: 'id' }, { kind: 'affected' }], statement: null, final: true },
        { text: 'r2', params: [], statement: null, final: true },
      ],
      list: true,
      check: 'update',
    };
    expect(await run(chain(field), db)).toBe('{"data":{"f0":[{"n":4,"ids":["3","4"],"affected":2},{"n":2}]}}');
  });

  it('refuses fields on two sources', async () => {
    const db = new FakeConnection({});
    await expect(run(chain(mutation('a'), { ...mutation('b'), source: 'other' } as StepRun), db)).rejects.toThrow('all mutation fields of a request must be on the same source');
  });
});
