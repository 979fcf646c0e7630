// Issue 4's query benchmark, in one run: the fixed dataset in a fresh database, then each
// target (the raw ceiling, this engine, PostGraphile 4 and 5) started in turn on it with the
// same pool size and driven by autocannon through workloads W1-W4 (and W1 as a role with a
// session-variable filter); then the engine's plan-cache-miss cost. Prints the figures and
// writes them into bench/RESULTS.md ("GraphQL queries").
//
// Environment: SERVICE_BENCH_DATABASE_URL, else SERVICE_TEST_DATABASE_URL, else an embedded
// PostgreSQL; BENCH_WARMUP_SECONDS (5), BENCH_DURATION_SECONDS (15), BENCH_POOL_SIZE (16);
// BENCH_TARGETS=ceiling,engine,... to measure only some targets (then RESULTS.md is left alone).
import autocannon from 'autocannon';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import pg from 'pg';
import { benchServer, freshDatabase, percentiles } from './_support.mjs';
import { DATASET_SQL } from './graphql/dataset.mjs';
import { TARGETS } from './graphql/targets.mjs';
import { canonical, WORKLOADS } from './graphql/workloads.mjs';

const CONNECTIONS = 32;
const WARMUP_S = Number(process.env.BENCH_WARMUP_SECONDS ?? 5);
const DURATION_S = Number(process.env.BENCH_DURATION_SECONDS ?? 15);
const POOL_SIZE = Number(process.env.BENCH_POOL_SIZE ?? 16);
const ONLY = process.env.BENCH_TARGETS?.split(',');
/** Requests whose answers are compared across targets. */
const SAMPLE_KS = [0, 4242, 77_777];
/** Distinct query texts sent once each to measure a plan-cache miss. */
const MISSES = 100;
const RESULTS = new URL('./RESULTS.md', import.meta.url);

/** The server of SERVICE_BENCH_DATABASE_URL or SERVICE_TEST_DATABASE_URL, else an embedded one. */
async function databaseServer() {
  if (!process.env.SERVICE_BENCH_DATABASE_URL && process.env.SERVICE_TEST_DATABASE_URL) {
    return { url: process.env.SERVICE_TEST_DATABASE_URL, stop: async () => {} };
  }
  return benchServer();
}

async function loadDataset(url) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(DATASET_SQL);
    await client.query('VACUUM ANALYZE');
    return (await client.query('SHOW server_version')).rows[0].server_version;
  } finally {
    await client.end();
  }
}

const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }));

/** User + system CPU time of a process (all its threads), in ms. */
function cpuMs(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the parenthesised command name, which may itself hold spaces; utime and stime are fields 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
}

async function post(server, target, workload, body) {
  const res = await fetch(server.url + target.path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...workload.headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, text: await res.text() };
}

/** The target's answers to the sample requests, reduced to the workload's underlying values. */
async function sampleValues(server, target, workload) {
  const out = [];
  for (const k of SAMPLE_KS) {
    const request = { query: workload[target.dialect], variables: workload.variables(k) };
    const { status, text } = await post(server, target, workload, request);
    let values;
    try {
      const body = JSON.parse(text);
      values = status === 200 && !body.errors ? canonical(workload.values[target.dialect](body.data)) : null;
    } catch {
      values = null;
    }
    out.push({ request, answer: `${status} ${text}`, values });
  }
  return out;
}

/** Autocannon against one workload: warm-up, then the timed run with the server's CPU time around it. */
async function measure(server, target, workload) {
  // Bodies prepared beforehand so that the load generator spends its CPU on sending.
  const bodies = Array.from({ length: 4096 }, (_, k) => JSON.stringify({ query: workload[target.dialect], variables: workload.variables(k) }));
  let next = 0;
  let failed = 0;
  let firstFailure = null;
  const run = (seconds) =>
    autocannon({
      url: server.url + target.path,
      connections: CONNECTIONS,
      duration: seconds,
      requests: [
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...workload.headers },
          setupRequest: (req) => ({ ...req, body: bodies[next++ % bodies.length] }),
          // GraphQL errors come with status 200.
          onResponse: (status, body) => {
            if (status === 200 && !body.includes('"errors"')) return;
            failed++;
            firstFailure ??= `${status} ${body.slice(0, 500)}`;
          },
        },
      ],
    });
  await run(WARMUP_S);
  failed = 0;
  const cpuBefore = cpuMs(server.pid);
  const r = await run(DURATION_S);
  const cpu = cpuMs(server.pid) - cpuBefore;
  return {
    rps: r.requests.total / r.duration,
    p50: r.latency.p50,
    p99: r.latency.p99,
    cpuPerRequest: cpu / r.requests.total,
    failed: failed + r.errors + r.timeouts,
    firstFailure,
  };
}

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
      const { status, text } = await post(server, target, workload, request);
      times.push(performance.now() - t);
      if (status !== 200 || text.includes('"errors"')) throw new Error(`plan-cache miss request failed: ${JSON.stringify(request)} -> ${status} ${text}`);
    }
  }
  return { workload: workload.name, miss: percentiles(miss), hit: percentiles(hit), compile: percentiles(miss.map((m, i) => m - hit[i])) };
}

async function benchTarget(target, dbUrl, out) {
  console.log(`\n${target.name}: starting`);
  const server = await target.start(dbUrl, POOL_SIZE);
  try {
    for (const workload of WORKLOADS) {
      if (!workload[target.dialect]) continue;
      out.samples.push({ target: target.name, workload: workload.name, answers: await sampleValues(server, target, workload) });
      const m = await measure(server, target, workload);
      out.results.push({ target: target.name, workload: workload.name, ...m });
      console.log(`  ${workload.name.padEnd(8)} ${fmtRow(m)}`);
    }
    if (target.name === 'engine') {
      for (const name of ['W1', 'W3']) out.compile.push(await planCacheMiss(server, target, WORKLOADS.find((w) => w.name === name)));
    }
  } finally {
    await server.stop();
  }
}

const fmtRow = (m) =>
  `${m.rps.toFixed(0).padStart(7)} req/s  p50 ${m.p50.toFixed(1)} ms  p99 ${m.p99.toFixed(1)} ms  CPU ${m.cpuPerRequest.toFixed(3)} ms/req` +
  (m.failed ? `  FAILED ${m.failed}: ${m.firstFailure}` : '');

/** Every target's sample answers against the ceiling's (else the first target's): mismatches, with request and answer. */
function compareSamples(samples) {
  const problems = [];
  for (const workload of WORKLOADS) {
    const mine = samples.filter((s) => s.workload === workload.name);
    const reference = mine.find((s) => s.target === 'ceiling') ?? mine[0];
    for (const s of mine) {
      s.answers.forEach((a, i) => {
        const expected = reference.answers[i];
        if (a.values !== null && a.values === expected.values) return;
        problems.push({ target: s.target, workload: workload.name, request: a.request, answer: a.answer, expected: expected.answer });
      });
    }
  }
  return problems;
}

const ratio = (a, b) => (a && b ? (a.rps / b.rps).toFixed(2) : 'n/a');

function report({ results, compile, skipped, problems }, env) {
  const get = (target, workload) => results.find((r) => r.target === target && r.workload === workload);
  const lines = [
    `${env.date}, ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ` +
      `PostgreSQL ${env.pgVersion} at ${env.pgHost}. Autocannon ${CONNECTIONS} connections, ${WARMUP_S} s warm-up then ${DURATION_S} s; ` +
      `pool of ${POOL_SIZE} connections in every target; load generator, servers and PostgreSQL share the machine.`,
    '',
    '| workload | target | req/s | p50 ms | p99 ms | server CPU ms/req | failed |',
    '|---|---|---:|---:|---:|---:|---:|',
    ...results.map((r) => `| ${r.workload} | ${r.target} | ${r.rps.toFixed(0)} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.cpuPerRequest.toFixed(3)} | ${r.failed} |`),
    '',
    '| workload | engine/ceiling (goal ≥ 0.85) | engine/best PostGraphile |',
    '|---|---:|---:|',
  ];
  for (const w of WORKLOADS.filter((x) => x.postgraphile)) {
    const best = ['postgraphile4', 'postgraphile5'].map((t) => get(t, w.name)).filter(Boolean).sort((a, b) => b.rps - a.rps)[0];
    lines.push(`| ${w.name} | ${ratio(get('engine', w.name), get('ceiling', w.name))} | ${ratio(get('engine', w.name), best)}${best ? ` (${best.target})` : ''} |`);
  }
  const [w1, w1Role] = [get('engine', 'W1'), get('engine', 'W1-role')];
  lines.push('');
  if (w1 && w1Role) lines.push(`Permissions on W1 (engine, role \`reader\` with a session-variable filter vs admin): ${((1 - w1Role.rps / w1.rps) * 100).toFixed(1)}% fewer req/s (goal ≤ 10%).`);
  for (const c of compile) {
    lines.push(
      `Plan-cache miss, ${c.workload} shape (engine, ${c.miss.n} distinct texts, one at a time): miss p50 ${c.miss.p50.toFixed(2)} ms / p95 ${c.miss.p95.toFixed(2)} ms, ` +
        `hit p50 ${c.hit.p50.toFixed(2)} ms; compile cost (miss − hit) p50 ${c.compile.p50.toFixed(2)} ms / p95 ${c.compile.p95.toFixed(2)} ms.`,
    );
  }
  for (const s of skipped) lines.push(`Skipped ${s.target}: ${s.reason}.`);
  lines.push(
    problems.length === 0
      ? `Same data: every target gave the same values for ${SAMPLE_KS.length} sample requests per workload.`
      : `Different data (${problems.length} sample answers): ${problems.map((p) => `${p.target} ${p.workload}`).join(', ')}.`,
  );
  return lines;
}

/** Replaces the "GraphQL queries" section of RESULTS.md (or appends it), leaving the rest. */
function writeResults(lines) {
  const heading = '## GraphQL queries';
  const section = [
    `${heading} (\`bench/graphql.mjs\`)`,
    '',
    'Issue 4: 10,000 authors, 100,000 articles (10 each, ~60% published), 500,000 comments (5 each).',
    'W1 `article_by_pk` (id varies); W1-role the same as role `reader`, whose filter reads',
    '`X-Service-Min-Author`; W2 20 top-rated published articles with their author; W3 10 authors by',
    'id with 5 latest articles each and their comment counts; W4 count and average rating of an',
    "author's published articles. The ceiling maps each request to hand-written SQL that builds the",
    'JSON in PostgreSQL (no GraphQL). PostGraphile runs with the connection-filter and aggregates',
    'plugins; it is not measured on W1-role (it would need row-level security).',
    '',
    ...lines,
    '',
  ].join('\n');
  const old = existsSync(RESULTS) ? readFileSync(RESULTS, 'utf8') : '# Bench results\n';
  const start = old.indexOf(`\n${heading}`);
  if (start < 0) return writeFileSync(RESULTS, `${old.trimEnd()}\n\n${section}`);
  const end = old.indexOf('\n## ', start + 1);
  writeFileSync(RESULTS, `${old.slice(0, start + 1)}${section}${end < 0 ? '' : old.slice(end)}`);
}

const server = await databaseServer();
const db = await freshDatabase(server.url);
try {
  console.log('loading the dataset');
  const env = { date: new Date().toISOString().slice(0, 10), pgVersion: await loadDataset(db.url), pgHost: new URL(server.url).host };
  const out = { results: [], samples: [], compile: [], skipped: [] };
  for (const target of TARGETS) {
    if (ONLY && !ONLY.includes(target.name)) continue;
    const reason = target.unavailable();
    if (reason) {
      console.log(`\n${target.name}: skipped: ${reason}`);
      out.skipped.push({ target: target.name, reason });
      continue;
    }
    await benchTarget(target, db.url, out);
  }
  const problems = compareSamples(out.samples);
  const lines = report({ ...out, problems }, env);
  console.log(`\n${lines.join('\n')}`);
  for (const p of problems) console.log(`\n${p.target} ${p.workload}: ${JSON.stringify(p.request)}\n  answer:   ${p.answer.slice(0, 1000)}\n  expected: ${p.expected.slice(0, 1000)}`);
  if (!ONLY) writeResults(lines);
  if (problems.length > 0 || out.results.some((r) => r.failed > 0)) process.exitCode = 1;
} finally {
  await db.drop();
  await server.stop();
}
