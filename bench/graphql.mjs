// The query benchmark, in one run: the fixed dataset in a fresh database, then each
// target (the raw ceiling, this engine, PostGraphile 4 and 5) started in turn on it with the
// same pool size and driven by autocannon through workloads W1-W4 (and W1 as a role with a
// session-variable filter); then the engine's plan-cache-miss cost. Prints the figures and
// writes them into bench/RESULTS.md ("GraphQL queries").
//
// Environment: SERVICE_BENCH_DATABASE_URL, else SERVICE_TEST_DATABASE_URL, else an embedded
// PostgreSQL; BENCH_WARMUP_SECONDS (5), BENCH_DURATION_SECONDS (15), BENCH_POOL_SIZE (16);
// BENCH_TARGETS=ceiling,engine,... to measure only some targets (then RESULTS.md is left alone).
import { percentiles } from './_support.mjs';
import { benchSettings, post, ratio, runBench } from './graphql/harness.mjs';
import { TARGETS } from './graphql/targets.mjs';
import { WORKLOADS } from './graphql/workloads.mjs';

/** Distinct query texts sent once each to measure a plan-cache miss. */
const MISSES = 100;

/**
 * A plan-cache miss: MISSES distinct texts of a workload's shape (an alias on the root field
 * makes each new), each sent once (miss) then again (hit), one request at a time.
 */
async function planCacheMiss(server, target, workload) {
  const miss = [];
  const hit = [];
  const tag = Date.now().toString(36);
  for (let i = 0; i < MISSES; i++) {
    // The first `{` opens the operation's selection set: the alias goes on its root field.
    const query = workload.service.replace('{', `{ m${tag}_${i}: `);
    const request = { query, variables: workload.variables(i) };
    for (const times of [miss, hit]) {
      const t = performance.now();
      const { status, text } = await post(server, target, workload, i, request);
      times.push(performance.now() - t);
      if (status !== 200 || text.includes('"errors"')) throw new Error(`plan-cache miss request failed: ${JSON.stringify(request)} -> ${status} ${text}`);
    }
  }
  return { workload: workload.name, miss: percentiles(miss), hit: percentiles(hit), compile: percentiles(miss.map((m, i) => m - hit[i])) };
}

async function engineCompileCost(server, target, out) {
  if (target.name !== 'engine') return;
  for (const name of ['W1', 'W3']) out.extra.push(await planCacheMiss(server, target, WORKLOADS.find((w) => w.name === name)));
}

/** The ratios to the ceiling and to the better PostGraphile, the goals, and the plan-cache-miss cost. */
function report({ results, extra: compile }) {
  const get = (target, workload) => results.find((r) => r.target === target && r.workload === workload);
  const lines = ['| workload | engine/ceiling (goal ≥ 0.85) | engine/best PostGraphile |', '|---|---:|---:|'];
  for (const w of WORKLOADS.filter((x) => x.postgraphile)) {
    const best = ['postgraphile4', 'postgraphile5'].map((t) => get(t, w.name)).filter(Boolean).sort((a, b) => b.rps - a.rps)[0];
    lines.push(`| ${w.name} | ${ratio(get('engine', w.name), get('ceiling', w.name))} | ${ratio(get('engine', w.name), best)}${best ? ` (${best.target})` : ''} |`);
  }
  const [w1, w1Role] = [get('engine', 'W1'), get('engine', 'W1-role')];
  lines.push('');
  const metered = WORKLOADS.filter((w) => get('engine', w.name) && get('engine-metrics', w.name)).map((w) => `${w.name} ${((1 - get('engine-metrics', w.name).rps / get('engine', w.name).rps) * 100).toFixed(1)}%`);
  if (metered.length > 0) lines.push(`- Metrics on (\`/v1/metrics\` scraped every 5 s) vs off, cost in req/s: ${metered.join(', ')} (goal ≤ 3%; negative: within noise).`);
  const traced = WORKLOADS.filter((w) => get('engine', w.name) && get('engine-traced', w.name)).map((w) => `${w.name} ${((1 - get('engine-traced', w.name).rps / get('engine', w.name).rps) * 100).toFixed(1)}%`);
  if (traced.length > 0) lines.push(`- Tracing on (every request, spans exported to a local OTLP/HTTP receiver) vs off, cost in req/s: ${traced.join(', ')} (goal ≤ 10%; negative: within noise).`);
  for (const [target, where] of [['engine-limits', 'in memory'], ['engine-limits-redis', 'in Redis']]) {
    const [none, set] = [get('engine', 'W1-role'), get(target, 'W1-role')];
    if (none && set) lines.push(`- API limits set (every limit, none reached; rate limit counted ${where}) vs none, W1-role cost in req/s: ${((1 - set.rps / none.rps) * 100).toFixed(1)}% (goal < 3%; negative: within noise).`);
  }
  if (w1) lines.push(`- Server CPU per request, engine W1: ${w1.cpuPerRequest.toFixed(3)} ms (goal ≤ 0.06 ms).`);
  if (w1 && w1Role) {
    const cost = (1 - w1Role.rps / w1.rps) * 100;
    lines.push(
      `- Permissions, engine: W1 as role \`reader\` (session-variable filter) ${w1Role.rps.toFixed(0)} req/s vs ${w1.rps.toFixed(0)} as admin: ` +
        `cost ${cost.toFixed(1)}% (goal ≤ 10%${cost < 0 ? '; negative: within noise' : ''}).`,
    );
  }
  for (const c of compile) {
    lines.push(
      `- Plan-cache miss, ${c.workload} shape (engine, ${c.miss.n} distinct texts, one at a time): miss p50 ${c.miss.p50.toFixed(2)} ms / p95 ${c.miss.p95.toFixed(2)} ms, ` +
        `hit p50 ${c.hit.p50.toFixed(2)} ms; compile cost (miss − hit) p50 ${c.compile.p50.toFixed(2)} ms / p95 ${c.compile.p95.toFixed(2)} ms.`,
    );
  }
  return lines;
}

await runBench({
  settings: benchSettings({ warmupS: 5, durationS: 15 }),
  workloads: WORKLOADS,
  targets: TARGETS,
  extra: engineCompileCost,
  report,
  title: 'GraphQL queries',
  script: 'graphql.mjs',
  intro: [
    'The dataset: 10,000 authors, 100,000 articles (10 each, ~60% published), 500,000 comments (5 each).',
    'W1 `article_by_pk` (id varies); W1-role the same as role `reader`, whose filter reads',
    '`X-Service-Min-Author`; W2 20 top-rated published articles with their author; W3 10 authors by',
    'id with 5 latest articles each and their comment counts; W4 count and average rating of an',
    "author's published articles. The ceiling maps each request to hand-written SQL that builds the",
    'JSON in PostgreSQL (no GraphQL). PostGraphile runs with the connection-filter and aggregates',
    'plugins; it is not measured on W1-role (it would need row-level security). The engine runs with',
    '`use_prepared_statements: true` (the ceiling and both PostGraphiles prepare their statements).',
    'Server CPU is the server process (all threads); PostgreSQL CPU is the backends of its pool;',
    '"others" is the share of the machine used by anything else during the timed run (other',
    'sessions working on this machine): a high share means a disturbed figure.',
  ],
});
