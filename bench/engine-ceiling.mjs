// The engine's CPU per request beside the raw ceiling's (bench/graphql/ceiling.mjs: uWS + pg
// sending each workload's SQL, no GraphQL), measured alternately: both servers stay up on the
// same fixed dataset and, for each of W1-W4 (and W1 as a role), a timed run of the ceiling is
// followed by one of the engine, BENCH_ROUNDS times. Runs minutes apart are not comparable on a
// shared 2-core machine (the ceiling's own CPU per request moved 15% between runs); adjacent
// runs are. Reports each one's median CPU per request (the server process, all threads), their
// ratio (goal: engine ≤ 1.2 × ceiling), and the req/s ratio (goal ≥ 0.95). Writes
// bench/RESULTS.md ("Engine beside the ceiling").
//
// Environment: SERVICE_BENCH_DATABASE_URL, else SERVICE_TEST_DATABASE_URL, else an embedded
// PostgreSQL; BENCH_ROUNDS (3), BENCH_WARMUP_SECONDS (3), BENCH_DURATION_SECONDS (10),
// BENCH_POOL_SIZE (16); BENCH_WORKLOADS=W1,W2 to measure only some (then RESULTS.md is left alone).
// BENCH_ENGINE_BEFORE=/path/to/another/checkout (built): its engine runs beside this one, the two
// in alternating order after the ceiling in each round, for a before/after of one run (a change
// of a few percent is not told apart across runs here); then RESULTS.md is left alone too.
import os from 'node:os';
import { freshDatabase } from './_support.mjs';
import { DATASET_SQL } from './graphql/dataset.mjs';
import { benchSettings, fmtRow, measure } from './graphql/harness.mjs';
import { databaseServer, writeResultsSection } from './graphql/support.mjs';
import { TARGETS } from './graphql/targets.mjs';
import { WORKLOADS } from './graphql/workloads.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const BEFORE = process.env.BENCH_ENGINE_BEFORE;
const settings = benchSettings({ warmupS: 3, durationS: 10 });
const median = (xs) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

const server = await databaseServer();
const db = await freshDatabase(server.url);
/** The servers started, in the order of `targets`. */
const servers = [];
try {
  await db.sql(DATASET_SQL);
  await db.sql('VACUUM ANALYZE');
  const pgVersion = (await db.sql('SHOW server_version')).rows[0].server_version;
  // [name, target]: the other checkout's engine is started by that checkout's own bench (its dist).
  const targets = [['ceiling', TARGETS.find((t) => t.name === 'ceiling')], ['engine', TARGETS.find((t) => t.name === 'engine')]];
  if (BEFORE) targets.push(['before', (await import(`${BEFORE}/bench/graphql/targets.mjs`)).TARGETS.find((t) => t.name === 'engine')]);
  for (const [, target] of targets) servers.push(await target.start(db.url, settings.poolSize));
  const rows = [];
  for (const workload of WORKLOADS.filter((w) => w.service && (!settings.onlyWorkloads || settings.onlyWorkloads.includes(w.name)))) {
    const runs = Object.fromEntries(targets.map(([name]) => [name, []]));
    for (let round = 0; round < ROUNDS; round++) {
      // The ceiling first, then the engines, which one first alternating by round.
      const order = BEFORE && round % 2 === 1 ? [0, 2, 1] : targets.map((_, i) => i);
      for (const i of order) {
        const [name, target] = targets[i];
        const m = await measure(servers[i], target, workload, db, settings);
        if (m.failed > 0) throw new Error(`${name} ${workload.name}: ${m.failed} requests failed: ${m.firstFailure}`);
        runs[name].push(m);
        console.log(`  ${workload.name.padEnd(8)} ${name.padEnd(8)} ${fmtRow(m)}`);
      }
    }
    const cpu = (name) => median(runs[name].map((m) => m.cpuPerRequest));
    const rps = (name) => median(runs[name].map((m) => m.rps));
    const row = { workload: workload.name, ceilingCpu: cpu('ceiling'), engineCpu: cpu('engine'), ceilingRps: rps('ceiling'), engineRps: rps('engine'), others: Math.max(...Object.values(runs).flat().map((m) => m.others ?? 0)) };
    if (BEFORE) Object.assign(row, { beforeCpu: cpu('before'), beforeRps: rps('before') });
    rows.push(row);
  }
  const lines = [
    `${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, PostgreSQL ${pgVersion} at ${new URL(server.url).host}; ` +
      `${ROUNDS} alternated rounds of ${settings.warmupS} s warm-up then ${settings.durationS} s per server, autocannon ${settings.connections} connections, pool of ${settings.poolSize}; medians.`,
    '',
    '| workload | ceiling CPU ms/req | engine CPU ms/req | engine/ceiling CPU (goal ≤ 1.20) | ceiling req/s | engine req/s | engine/ceiling req/s (goal ≥ 0.95) | others, at most |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.workload} | ${r.ceilingCpu.toFixed(3)} | ${r.engineCpu.toFixed(3)} | ${(r.engineCpu / r.ceilingCpu).toFixed(2)} | ${r.ceilingRps.toFixed(0)} | ${r.engineRps.toFixed(0)} | ${(r.engineRps / r.ceilingRps).toFixed(2)} | ${(r.others * 100).toFixed(0)}% |`,
    ),
  ];
  if (BEFORE) {
    lines.push(
      '',
      `The engine of ${BEFORE} beside it (before) in the same rounds:`,
      '',
      '| workload | before CPU ms/req (÷ ceiling) | engine CPU ms/req (÷ ceiling) | before → engine req/s ÷ ceiling |',
      '|---|---:|---:|---|',
      ...rows.map(
        (r) =>
          `| ${r.workload} | ${r.beforeCpu.toFixed(3)} (${(r.beforeCpu / r.ceilingCpu).toFixed(2)}) | ${r.engineCpu.toFixed(3)} (${(r.engineCpu / r.ceilingCpu).toFixed(2)}) | ${(r.beforeRps / r.ceilingRps).toFixed(2)} → ${(r.engineRps / r.ceilingRps).toFixed(2)} |`,
      ),
    );
  }
  console.log(`\n${lines.join('\n')}`);
  const heading = '## Engine beside the ceiling';
  if (!settings.onlyWorkloads && !BEFORE) writeResultsSection(heading, [`${heading} (\`bench/engine-ceiling.mjs\`)`, '', ...lines].join('\n'));
} finally {
  for (const s of servers) await s.stop();
  await db.drop();
  await server.stop();
}
