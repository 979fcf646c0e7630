// The throughput harness shared by bench/graphql.mjs (queries) and bench/graphql-mutations.mjs:
// the fixed dataset in a fresh database, then each target started in turn on it with the same
// pool size and driven by autocannon through the workloads, with the CPU time of the server and
// of its PostgreSQL backends read around each timed run; sample answers compared across targets;
// the figures printed and written into a section of bench/RESULTS.md.
import autocannon from 'autocannon';
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import os from 'node:os';
import { freshDatabase } from '../_support.mjs';
import { DATASET_SQL } from './dataset.mjs';
import { databaseServer, writeResultsSection } from './support.mjs';
import { canonical } from './workloads.mjs';

/** Requests whose answers are compared across targets. */
const SAMPLE_KS = [0, 4242, 77_777];
/** Share of the machine's CPU used by other processes above which a timed run is repeated. */
const DISTURBED = 0.15;
/** How long after a server's start its first timed run waits (see `measure`). */
const SETTLE_MS = 20_000;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Autocannon connections, seconds of warm-up and of the timed run, pool size, and the targets
 * to measure: from BENCH_WARMUP_SECONDS, BENCH_DURATION_SECONDS, BENCH_POOL_SIZE (16),
 * BENCH_TARGETS and BENCH_WORKLOADS (comma-separated names), else the script's defaults.
 */
export function benchSettings({ warmupS, durationS }) {
  return {
    connections: 32,
    warmupS: Number(process.env.BENCH_WARMUP_SECONDS ?? warmupS),
    durationS: Number(process.env.BENCH_DURATION_SECONDS ?? durationS),
    poolSize: Number(process.env.BENCH_POOL_SIZE ?? 16),
    only: process.env.BENCH_TARGETS?.split(','),
    onlyWorkloads: process.env.BENCH_WORKLOADS?.split(','),
  };
}

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

/** CPU ms of each thread of a process, by `main` (the process's first thread) or `<name>#<tid>` (Node's threads are all named `node`). */
function threadCpuMs(pid) {
  const byName = new Map();
  let tids;
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return byName;
  }
  for (const tid of tids) {
    let stat;
    try {
      stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    } catch {
      continue;
    }
    const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    byName.set(tid === String(pid) ? 'main' : `${name}#${tid}`, ticksToMs(Number(fields[11]) + Number(fields[12])));
  }
  return byName;
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
    await sleep(1000);
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
  return { server: cpuMs(serverPid), threads: threadCpuMs(serverPid), postgres: pgPids.map(cpuMs), self: (self.user + self.system) / 1000, machine: machineBusyMs() };
}

/** CPU ms between two snapshots, per part; PostgreSQL over the backends seen in both (a pool may close idle ones). */
function cpuUsed(before, after) {
  const seen = before.postgres.map((b, i) => (b === null || after.postgres[i] === null ? null : after.postgres[i] - b)).filter((x) => x !== null);
  return {
    server: after.server - before.server,
    threads: threadsUsed(before.threads, after.threads),
    postgres: seen.length > 0 ? seen.reduce((a, b) => a + b, 0) : null,
    self: after.self - before.self,
    machine: after.machine - before.machine,
  };
}

/** CPU ms per thread between two snapshots, the busiest first. */
const threadsUsed = (before, after) =>
  [...after]
    .map(([thread, ms]) => [thread, ms - (before.get(thread) ?? 0)])
    .filter(([, ms]) => ms > 0)
    .sort((a, b) => b[1] - a[1]);

/** The headers of a workload's k-th request: its role and session variables, if any. */
const headersOf = (workload, k) => ({ 'content-type': 'application/json', ...workload.headers?.(k) });

/** The workload's k-th request to the target, as sent. */
const requestOf = (target, workload, k) => ({ query: workload[target.dialect], variables: workload.variables(k) });

/** One POST of `body` with the headers of the workload's k-th request. */
export async function post(server, target, workload, k, body) {
  const res = await fetch(server.url + target.path, { method: 'POST', headers: headersOf(workload, k), body: JSON.stringify(body) });
  return { status: res.status, text: await res.text() };
}

/** The target's answers to the sample requests, reduced to the workload's underlying values. */
async function sampleValues(server, target, workload) {
  const out = [];
  for (const k of SAMPLE_KS) {
    const request = requestOf(target, workload, k);
    const { status, text } = await post(server, target, workload, k, request);
    let values;
    try {
      const body = JSON.parse(text);
      values = status === 200 && !body.errors ? canonical(workload.values[target.dialect](body.data)) : null;
    } catch {
      values = null;
    }
    out.push({ request, headers: workload.headers?.(k), answer: `${status} ${text}`, values });
  }
  return out;
}

/**
 * Autocannon against one workload: warm-up, then the timed run, with CPU times around it.
 * `others` is the share of the machine's CPU used by anything else (other sessions' work)
 * during the run: high values mean the figures are disturbed.
 */
export async function measure(server, target, workload, db, settings) {
  // Requests prepared beforehand so that the load generator spends its CPU on sending.
  const prepared = Array.from({ length: 4096 }, (_, k) => ({ headers: headersOf(workload, k), body: JSON.stringify(requestOf(target, workload, k)) }));
  let next = 0;
  let failed = 0;
  let firstFailure = null;
  const run = (seconds) =>
    autocannon({
      url: server.url + target.path,
      connections: settings.connections,
      duration: seconds,
      requests: [
        {
          method: 'POST',
          setupRequest: (req) => ({ ...req, ...prepared[next++ % prepared.length] }),
          // GraphQL errors come with status 200.
          onResponse: (status, body) => {
            if (status === 200 && !body.includes('"errors"')) return;
            failed++;
            firstFailure ??= `${status} ${body.slice(0, 500)}`;
          },
        },
      ],
    });
  // A server's isolates (the engine has one per actor and pool thread) each run up to three
  // memory-reducing full GCs some 8-25 s after they start or fall idle (seen with --trace-gc:
  // 15-85 ms each); a run in that window charges them to whichever workload comes first.
  await sleep(Math.max(0, (server.startedAt ?? 0) + SETTLE_MS - performance.now()));
  const quiet = await waitForQuiet();
  await run(settings.warmupS);
  failed = 0;
  // After the warm-up the pool's connections are open.
  const pgPids = await backendPids(db);
  const before = cpuSnapshot(server.pid, pgPids);
  const r = await run(settings.durationS);
  const used = cpuUsed(before, cpuSnapshot(server.pid, pgPids));
  const n = r.requests.total;
  const others = used.machine - used.server - used.self - (used.postgres ?? 0);
  return {
    rps: n / r.duration,
    p50: r.latency.p50,
    p99: r.latency.p99,
    cpuPerRequest: used.server / n,
    threadsPerRequest: used.threads.map(([name, ms]) => [name, ms / n]),
    pgCpuPerRequest: used.postgres === null ? null : used.postgres / n,
    others: used.postgres === null ? null : others / (r.duration * 1000 * os.cpus().length),
    quiet,
    failed: failed + r.errors + r.timeouts,
    firstFailure,
  };
}

/** A timed run; when another session's burst of work skewed it, once more, keeping the quieter run. */
async function measureQuietest(server, target, workload, db, settings) {
  const m = await measure(server, target, workload, db, settings);
  if (!(m.others > DISTURBED)) return m;
  const again = await measure(server, target, workload, db, settings);
  return again.others < m.others ? again : m;
}

const fixed = (x, digits) => (x === null ? 'n/a' : x.toFixed(digits));
// Clamped: the CPU counters tick in 10 ms steps, so an idle share can come out slightly negative.
const percent = (x) => (x === null ? 'n/a' : `${Math.max(0, x * 100).toFixed(0)}%`);

export const fmtRow = (m) =>
  `${m.rps.toFixed(0).padStart(7)} req/s  p50 ${m.p50} ms  p99 ${m.p99} ms  CPU ${m.cpuPerRequest.toFixed(3)} ms/req` +
  `  PostgreSQL ${fixed(m.pgCpuPerRequest, 3)} ms/req  others ${percent(m.others)}${m.quiet ? '' : ' (busy before)'}` +
  (m.failed ? `  FAILED ${m.failed}: ${m.firstFailure}` : '') +
  // Where the server's CPU went: its busiest threads (the main one, workers, V8's GC helpers, libuv's pool).
  `\n           server threads, CPU ms/req: ${m.threadsPerRequest.slice(0, 6).map(([name, ms]) => `${name} ${ms.toFixed(3)}`).join(', ')}`;

/** Requests per second of `a` over `b`, to two decimals. */
export const ratio = (a, b) => (a && b ? (a.rps / b.rps).toFixed(2) : 'n/a');

/** Starts the target, takes its sample answers and measures each workload it has a query for; `extra` runs before it stops. */
async function benchTarget(target, db, settings, workloads, extra, out) {
  console.log(`\n${target.name}: starting`);
  const server = await target.start(db.url, settings.poolSize);
  try {
    for (const workload of workloads) {
      if (!workload[target.dialect] || (settings.onlyWorkloads && !settings.onlyWorkloads.includes(workload.name))) continue;
      out.samples.push({ target: target.name, workload: workload.name, answers: await sampleValues(server, target, workload) });
      const m = await measureQuietest(server, target, workload, db, settings);
      out.results.push({ target: target.name, workload: workload.name, ...m });
      console.log(`  ${workload.name.padEnd(8)} ${fmtRow(m)}`);
    }
    await extra?.(server, target, out);
  } finally {
    await server.stop();
  }
}

/** Every target's sample answers against the ceiling's (else the first target's): mismatches, with request and answer. */
function compareSamples(samples, workloads) {
  const problems = [];
  for (const workload of workloads) {
    const mine = samples.filter((s) => s.workload === workload.name);
    const reference = mine.find((s) => s.target === 'ceiling') ?? mine[0];
    for (const s of mine) {
      s.answers.forEach((a, i) => {
        const expected = reference.answers[i];
        if (a.values !== null && a.values === expected.values) return;
        problems.push({ target: s.target, workload: workload.name, request: a.request, headers: a.headers, answer: a.answer, expected: expected.answer });
      });
    }
  }
  return problems;
}

/** The machine, the database and the settings, then one table row per (workload, target). */
function resultLines(results, env, settings) {
  return [
    `${env.date}, ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ` +
      `PostgreSQL ${env.pgVersion} at ${env.pgHost}. Autocannon ${settings.connections} connections, ${settings.warmupS} s warm-up then ${settings.durationS} s; ` +
      `pool of ${settings.poolSize} connections in every target; load generator, servers and PostgreSQL share the machine.`,
    '',
    // Autocannon measures latency in whole milliseconds.
    '| workload | target | req/s | p50 ms | p99 ms | server CPU ms/req | PostgreSQL CPU ms/req | others | failed |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|',
    ...results.map(
      (r) =>
        `| ${r.workload} | ${r.target} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.cpuPerRequest.toFixed(3)} | ` +
        `${fixed(r.pgCpuPerRequest, 3)} | ${percent(r.others)}${r.quiet ? '' : ' (busy before)'} | ${r.failed} |`,
    ),
  ];
}

/** The targets skipped and whether the sample answers agreed. */
function closingLines(skipped, problems) {
  return [
    ...skipped.map((s) => `- Skipped ${s.target}: ${s.reason}.`),
    problems.length === 0
      ? `- Same data: every target gave the same values for ${SAMPLE_KS.length} sample requests per workload.`
      : `- Different data (${problems.length} sample answers): ${problems.map((p) => `${p.target} ${p.workload}`).join(', ')}.`,
  ];
}

function printProblems(problems) {
  for (const p of problems) {
    console.log(
      `\n${p.target} ${p.workload}: ${JSON.stringify(p.request)}${p.headers ? ` headers ${JSON.stringify(p.headers)}` : ''}\n` +
        `  answer:   ${p.answer.slice(0, 1000)}\n  expected: ${p.expected.slice(0, 1000)}`,
    );
  }
}

/** Runs `fn` on a copy of `db` (dropped after) when `copy`, else on `db` itself. */
async function onDatabase(db, copy, fn) {
  if (!copy) return fn(db);
  const own = await db.copy();
  try {
    return await fn(own);
  } finally {
    await own.drop();
  }
}

/**
 * A whole bench run on the fixed dataset (then `setupSql`) in a fresh database. Each of
 * `targets` that can run here is measured on `workloads` (`extra(server, target, out)` may add
 * figures to `out.extra` before the target stops); with `copyPerTarget` (workloads that write),
 * each target gets a copy of the loaded database, so that the rows one target wrote (dead
 * versions, index growth) do not slow the next. `report(out)` gives the lines that follow the
 * results table; all of it is printed and, unless BENCH_TARGETS picked some targets, written into
 * bench/RESULTS.md as section `## title (\`bench/script\`)` after the `intro` lines. Sets a
 * failing exit code when a request failed or the sample answers differ.
 */
export async function runBench({ settings, workloads, targets, setupSql = '', copyPerTarget = false, extra, report, title, script, intro }) {
  const server = await databaseServer();
  const db = await freshDatabase(server.url);
  try {
    console.log('loading the dataset');
    await db.sql(DATASET_SQL + setupSql);
    await db.sql('VACUUM ANALYZE');
    const pgVersion = (await db.sql('SHOW server_version')).rows[0].server_version;
    const env = { date: new Date().toISOString().slice(0, 10), pgVersion, pgHost: new URL(server.url).host };
    const out = { results: [], samples: [], extra: [], skipped: [] };
    for (const target of targets) {
      if (settings.only && !settings.only.includes(target.name)) continue;
      const reason = target.unavailable();
      if (reason) {
        console.log(`\n${target.name}: skipped: ${reason}`);
        out.skipped.push({ target: target.name, reason });
        continue;
      }
      await onDatabase(db, copyPerTarget, (own) => benchTarget(target, own, settings, workloads, extra, out));
    }
    const problems = compareSamples(out.samples, workloads);
    const lines = [...resultLines(out.results, env, settings), '', ...report(out), ...closingLines(out.skipped, problems)];
    console.log(`\n${lines.join('\n')}`);
    printProblems(problems);
    const heading = `## ${title}`;
    if (!settings.only && !settings.onlyWorkloads) writeResultsSection(heading, [`${heading} (\`bench/${script}\`)`, '', ...intro, '', ...lines].join('\n'));
    if (problems.length > 0 || out.results.some((r) => r.failed > 0)) process.exitCode = 1;
  } finally {
    await db.drop();
    await server.stop();
  }
}
