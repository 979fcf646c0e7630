/**
 * The live-query multiplexer against a fake source (no database): rows matched to cohorts by
 * `result_id` whatever their order, results sent only when changed (and to a new subscriber at
 * once), and the fallback of a backend that cannot multiplex (each cohort's own statement,
 * bound by `execute/cohort.ts`).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { SourceConnection } from '../../src/backends/faces/runtime.js';
import { loadEveryBackend, backendFor } from '../../src/backends/registry.js';
import { cohortValues } from '../../src/execute/cohort.js';
import { LiveQueries } from '../../src/live/live-queries.js';
import { liveQuery } from '../../src/graphql/live-query-key.js';
import type { Plan, PlanStep } from '../../src/protocol/plan.js';

// The backends a thread uses are loaded first (backends/registry.ts).
await loadEveryBackend();

type Rows = Record<string, string | null>[];

/** A source answering every statement with `answer`, recording what ran. */
function fakeSource(answer: { json?: (values: unknown[]) => string; rows?: (values: unknown[]) => Rows }) {
  const ran: { text: string; values: unknown[] }[] = [];
  const connection: SourceConnection = {
    json: async (text, values) => (ran.push({ text, values }), answer.json!(values)),
    rows: async (text, values) => (ran.push({ text, values }), answer.rows!(values)),
    transaction: () => Promise.reject(new Error('no transactions here')),
    explain: async () => [],
    close: async () => {},
  };
  return { ran, sources: new Map([['default', { connection, backend: backendFor('postgres')! }]]) };
}

const plan = (run: Partial<Extract<PlanStep['run'], { kind: 'sql' }>>): Plan => ({
  queryHash: 'h',
  size: { depth: 1, nodes: 1 },
  operation: 'subscription',
  steps: [
    {
      id: 0,
      dependsOn: [],
      run: { kind: 'sql', source: 'default', text: 'plain', params: [{ kind: 'session' }, { kind: 'variable', name: 'x', path: [], coerce: 'scalar' }, { kind: 'literal', value: 'L', query: true }], statement: null, ...run },
      output: { kind: 'response', path: ['f'] },
    },
  ],
  variables: [{ name: 'x', type: 'Int', hasDefault: false, defaultValue: null }],
  shape: [],
  sessionVariables: ['x-service-user-id'],
  reads: { everything: false, sources: [], tables: [] },
});

const values = (p: Plan, user: string, x: number) => cohortValues(p, { variables: { x }, session: { 'x-service-user-id': user, 'x-service-other': 'o' } });
const tick = () => new Promise((r) => setTimeout(r, 30));

let live: LiveQueries | undefined;
afterEach(() => live?.close());

describe('live queries', () => {
  it('runs one multiplexed statement for a batch of cohorts and matches rows by result_id', async () => {
    const p = plan({ multiplexed: { text: 'multiplexed', statement: 'm1' } });
    const { ran, sources } = fakeSource({
      rows: ([cohorts]) =>
        (cohorts as string[]).map((c, i) => ({ result_id: String(i + 1), result: JSON.stringify(JSON.parse(c).session) })).reverse(),
    });
    live = new LiveQueries(sources, { intervalMs: 10_000, batchSize: 10 });
    const got: Record<string, string[]> = { a: [], b: [], c: [] };
    live.subscribe(liveQuery('user', p.steps, p.reads.tables), values(p, '1', 5), (t) => got.a!.push(t));
    live.subscribe(liveQuery('user', p.steps, p.reads.tables), values(p, '2', 5), (t) => got.b!.push(t));
    await tick();
    expect(got.a).toEqual(['{"data":{"f":{"x-service-user-id":"1"}}}']);
    expect(got.b).toEqual(['{"data":{"f":{"x-service-user-id":"2"}}}']);
    const last = ran.at(-1)!;
    expect(last.text).toBe('multiplexed');
    // The session variable the plan does not read is not in the cohort values.
    expect(JSON.parse((last.values[0] as string[])[0]!)).toEqual({ query: { x: 5 }, session: { 'x-service-user-id': '1' }, synthetic: ['L'] });
    // A subscriber joining a cohort whose result has not changed gets it; the others get nothing again.
    live.subscribe(liveQuery('user', p.steps, p.reads.tables), values(p, '1', 5), (t) => got.c!.push(t));
    await tick();
    expect(got).toEqual({ a: ['{"data":{"f":{"x-service-user-id":"1"}}}'], b: ['{"data":{"f":{"x-service-user-id":"2"}}}'], c: ['{"data":{"f":{"x-service-user-id":"1"}}}'] });
    expect(live.counts).toEqual({ queries: 1, cohorts: 2, subscribers: 3 });
  });

  it('runs each cohort on its own when the backend cannot multiplex', async () => {
    const p = plan({});
    const { ran, sources } = fakeSource({ json: (v) => JSON.stringify(v) });
    live = new LiveQueries(sources, { intervalMs: 10_000, batchSize: 10 });
    const got: string[] = [];
    const stop = live.subscribe(liveQuery('user', p.steps, p.reads.tables), values(p, '1', 5), (t) => got.push(t));
    live.subscribe(liveQuery('user', p.steps, p.reads.tables), values(p, '2', 6), (t) => got.push(t));
    await tick();
    expect(ran.map((r) => r.values)).toEqual([
      ['{"x-service-user-id":"1"}', '5', 'L'],
      ['{"x-service-user-id":"2"}', '6', 'L'],
    ]);
    expect(got.sort()).toEqual(['{"data":{"f":["{\\"x-service-user-id\\":\\"1\\"}","5","L"]}}', '{"data":{"f":["{\\"x-service-user-id\\":\\"2\\"}","6","L"]}}']);
    stop();
    expect(live.counts).toEqual({ queries: 1, cohorts: 1, subscribers: 1 });
  });
});

describe('streaming cohorts', () => {
  /** A stream over rows 1..3 after each cohort's cursor, one row per batch; no rows: no cursor. */
  const streamSource = () =>
    fakeSource({
      rows: ([cohorts]) =>
        (cohorts as string[]).map((c, i) => {
          const next = Number(JSON.parse(c).cursor) + 1;
          return next <= 3 ? { result_id: String(i + 1), result: `[${next}]`, cursor: String(next) } : { result_id: String(i + 1), result: '[]', cursor: null };
        }),
    });
  /** A request whose `initial_value` is this literal. */
  const streamPlan = (initial: number) => plan({ multiplexed: { text: 'multiplexed', statement: 'm1' }, stream: { initial: { kind: 'literal', value: String(initial) } } });

  it('sends each batch once, moves the cursor, sends nothing without rows, and files a cohort under its cursor', async () => {
    const p = streamPlan(0);
    const { ran, sources } = streamSource();
    live = new LiveQueries(sources, { intervalMs: 100, batchSize: 10 });
    const a: string[] = [];
    const b: string[] = [];
    live.subscribe(liveQuery('user', p.steps, p.reads.tables), values(p, '1', 5), (t) => a.push(t));
    await tick();
    expect(a).toEqual(['{"data":{"f":[1]}}']);
    // The cohort's cursor is now 1: a subscriber starting from 1 joins it.
    const from1 = streamPlan(1);
    live.subscribe(liveQuery('user', from1.steps, from1.reads.tables), values(from1, '1', 5), (t) => b.push(t));
    expect(live.counts).toEqual({ queries: 1, cohorts: 1, subscribers: 2 });
    await new Promise((r) => setTimeout(r, 350));
    expect(a).toEqual(['{"data":{"f":[1]}}', '{"data":{"f":[2]}}', '{"data":{"f":[3]}}']);
    expect(b).toEqual(['{"data":{"f":[2]}}', '{"data":{"f":[3]}}']);
    expect(JSON.parse((ran.at(-1)!.values[0] as string[])[0]!).cursor).toBe('3');
  });
});
