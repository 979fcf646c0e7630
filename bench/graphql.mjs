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
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { freshDatabase, percentiles } from './_support.mjs';
import { DATASET_SQL } from './graphql/dataset.mjs';
import { databaseServer, writeResultsSection } from './graphql/support.mjs';
import { TARGETS } from './graphql/targets.mjs';
import { canonical, WORKLOADS } from './graphql/workloads.mjs';

const CONNECTIONS = 32;
const WARMUP_S = Number(process.env.BENCH_WARMUP_SECONDS ?? 5);
const DURATION_S = Number(process.env.BENCH_DURATION_SECONDS ?? 15);
const POOL_SIZE = Number(process.env.BENCH_POOL_SIZE ?? 16);
const ONLY = process.env.BENCH_TARGETS?.split(',');
/** Requests whose answers are compared across targets. */
const SAMPLE_KS = [0, 4242, 77_777];
/** Share of the machine's CPU used by other processes above which a timed run is repeated. */
const DISTURBED = 0.15;
/** Distinct query texts sent once each to measure a plan-cache miss. */
const MISSES = 100;

const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }));
const ticksToMs = (ticks) => (ticks * 1000) / CLOCK_TICKS;

/** User + system CPU time of a process (all its threads), in ms; null when it is not visible here. */
function cpuMs(pid) {
  let stat;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // Fields after the parenthesised command name, which may itself hold spaces; utime and stime are fields 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ticksToMs(Number(fields[11]) + Number(fields[12]));
}

/** CPU time the whole machine spent busy (all cores), in ms. */
function machineBusyMs() {
  const [user, nice, system, , , irq, softirq, steal] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  return ticksToMs(user + nice + system + irq + softirq + steal);
}

/**
 * Other sessions may share this machine: before a timed run, wait (up to 30 s) for a second
 * in which it is nearly idle. Returns whether it was.
 */
async function waitForQuiet() {
  for (let i = 0; i < 30; i++) {
    const before = machineBusyMs();
    await new Promise((r) => setTimeout(r, 1000));
    if (machineBusyMs() - before < 0.15 * 1000 * os.cpus().length) return true;
  }
  return false;
}

/** The PostgreSQL backends serving the bench database (the target's pool), to read their CPU time. */
async function backendPids(db) {
  const r = await db.sql('SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()');
  return r.rows.map((row) => row.pid);
}

/**
 * CPU time of the server, of each of its PostgreSQL backends (null where not visible: PostgreSQL runs elsewhere), of
 * this process (the load generator), and of the whole machine.
 */
function cpuSnapshot(serverPid, pgPids) {
  const self = process.cpuUsage();
  return { server: cpuMs(serverPid), postgres: pgPids.map(cpuMs), self: (self.user + self.system) / 1000, machine: machineBusyMs() };
}

/** CPU ms between two snapshots, per part; PostgreSQL over the backends seen in both (a pool may close idle ones). */
function cpuUsed(before, after) {
  const seen = before.postgres.map((b, i) => (b === null || after.postgres[i] === null ? null : after.postgres[i] - b)).filter((x) => x !== null);
  return {
    server: after.server - before.server,
    postgres: seen.length > 0 ? seen.reduce((a, b) => a + b, 0) : null,
    self: after.self - before.self,
    machine: after.machine - before.machine,
  };
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

/**
 * Autocannon against one workload: warm-up, then the timed run, with CPU times around it.
 * `others` is the share of the machine's CPU used by anything else (other sessions' work)
 * during the run: high values mean the figures are disturbed.
 */
async function measure(server, target, workload, db) {
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
  const quiet = await waitForQuiet();
  await run(WARMUP_S);
  failed = 0;
  // After the warm-up the pool's connections are open.
  const pgPids = await backendPids(db);
  const before = cpuSnapshot(server.pid, pgPids);
  const r = await run(DURATION_S);
  const used = cpuUsed(before, cpuSnapshot(server.pid, pgPids));
  const n = r.requests.total;
  const others = used.machine - used.server - used.self - (used.postgres ?? 0);
  return {
    rps: n / r.duration,
    p50: r.latency.p50,
    p99: r.latency.p99,
    cpuPerRequest: used.server / n,
    pgCpuPerRequest: used.postgres === null ? null : used.postgres / n,
    others: used.postgres === null ? null : others / (r.duration * 1000 * os.cpus().length),
    quiet,
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

async function benchTarget(target, db, out) {
  console.log(`\n${target.name}: starting`);
  const server = await target.start(db.url, POOL_SIZE);
  try {
    for (const workload of WORKLOADS) {
      if (!workload[target.dialect]) continue;
      out.samples.push({ target: target.name, workload: workload.name, answers: await sampleValues(server, target, workload) });
      let m = await measure(server, target, workload, db);
      // Another session's burst of work skews a figure: measure once more and keep the quieter run.
      if (m.others > DISTURBED) {
        const again = await measure(server, target, workload, db);
        if (again.others < m.others) m = again;
      }
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

const fixed = (x, digits) => (x === null ? 'n/a' : x.toFixed(digits));
// Clamped: the CPU counters tick in 10 ms steps, so an idle share can come out slightly negative.
const percent = (x) => (x === null ? 'n/a' : `${Math.max(0, x * 100).toFixed(0)}%`);

const fmtRow = (m) =>
  `${m.rps.toFixed(0).padStart(7)} req/s  p50 ${m.p50} ms  p99 ${m.p99} ms  CPU ${m.cpuPerRequest.toFixed(3)} ms/req` +
  `  PostgreSQL ${fixed(m.pgCpuPerRequest, 3)} ms/req  others ${percent(m.others)}${m.quiet ? '' : ' (busy before)'}` +
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
    // Autocannon measures latency in whole milliseconds.
    '| workload | target | req/s | p50 ms | p99 ms | server CPU ms/req | PostgreSQL CPU ms/req | others | failed |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|',
    ...results.map(
      (r) =>
        `| ${r.workload} | ${r.target} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.cpuPerRequest.toFixed(3)} | ` +
        `${fixed(r.pgCpuPerRequest, 3)} | ${percent(r.others)}${r.quiet ? '' : ' (busy before)'} | ${r.failed} |`,
    ),
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
  for (const s of skipped) lines.push(`- Skipped ${s.target}: ${s.reason}.`);
  lines.push(
    problems.length === 0
      ? `- Same data: every target gave the same values for ${SAMPLE_KS.length} sample requests per workload.`
      : `- Different data (${problems.length} sample answers): ${problems.map((p) => `${p.target} ${p.workload}`).join(', ')}.`,
  );
  return lines;
}

/** The "GraphQL queries" section of RESULTS.md. */
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
    'plugins; it is not measured on W1-role (it would need row-level security). The engine runs with',
    '`use_prepared_statements: true` (the ceiling and both PostGraphiles prepare their statements).',
    'Server CPU is the server process (all threads); PostgreSQL CPU is the backends of its pool;',
    '"others" is the share of the machine used by anything else during the timed run (other',
    'sessions working on this machine): a high share means a disturbed figure.',
    '',
    ...lines,
  ].join('\n');
  writeResultsSection(heading, section);
}

const server = await databaseServer();
const db = await freshDatabase(server.url);
try {
  console.log('loading the dataset');
  await db.sql(DATASET_SQL);
  await db.sql('VACUUM ANALYZE');
  const pgVersion = (await db.sql('SHOW server_version')).rows[0].server_version;
  const env = { date: new Date().toISOString().slice(0, 10), pgVersion, pgHost: new URL(server.url).host };
  const out = { results: [], samples: [], compile: [], skipped: [] };
  for (const target of TARGETS) {
    if (ONLY && !ONLY.includes(target.name)) continue;
    const reason = target.unavailable();
    if (reason) {
      console.log(`\n${target.name}: skipped: ${reason}`);
      out.skipped.push({ target: target.name, reason });
      continue;
    }
    await benchTarget(target, db, out);
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
