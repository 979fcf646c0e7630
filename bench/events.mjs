// Event triggers: one engine delivering the INSERTs of one table to a local webhook that
// answers at once. Two cases, each on a fresh database and engine:
// - steady: the source takes RATE inserts per second for SECONDS seconds (batches of BATCH rows
//   every BATCH / RATE s);
// - burst: BURST rows inserted as fast as one client can (batches of BATCH rows, no pause).
// Measures: events delivered per second (from the first insert to the last delivery), the
// insert-to-delivery latency (the bench's clock at the INSERT's commit to the webhook's receipt),
// duplicates, and what does not depend on the machine's load: the engine's CPU per event (all its
// threads, /proc), the database's CPU per event in the engine's connections (their backends'
// /proc), the database's transactions per event (pg_stat_database, the inserts' left out), and
// the CPU the rest takes on the same machine (the bench process: webhook and inserts; the
// inserts' database connection).
// Two instances without duplicates and a kill -9 mid-burst are end-to-end tests
// (test/e2e/event-triggers-instances.test.ts).
// Writes bench/RESULTS.md ("## events").
//
// Environment: SERVICE_BENCH_DATABASE_URL, else SERVICE_TEST_DATABASE_URL, else an embedded PostgreSQL;
// SERVICE_BENCH_EVENTS_RATE (2000), SERVICE_BENCH_EVENTS_SECONDS (10): the steady case, skipped
// when either is 0; SERVICE_BENCH_EVENTS_BURST (20000): the burst case's rows, skipped when 0.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import os from 'node:os';
import pg from 'pg';
import { freshDatabase, percentiles, startEngine } from './_support.mjs';
import { databaseServer, writeResultsSection } from './graphql/support.mjs';

const RATE = Number(process.env.SERVICE_BENCH_EVENTS_RATE ?? 2000);
const SECONDS = Number(process.env.SERVICE_BENCH_EVENTS_SECONDS ?? 10);
const BURST = Number(process.env.SERVICE_BENCH_EVENTS_BURST ?? 20000);
const BATCH = 100;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** CPU milliseconds a process has used (all threads), from /proc (utime + stime, in 100 Hz clock ticks); 0 once gone. */
function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

/** The database's backends other than `except`, with the CPU each has used so far. */
async function backendsCpu(client, except) {
  const rows = (await client.query('SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> $1', [except])).rows;
  return new Map(rows.map((r) => [r.pid, cpuMs(r.pid)]));
}

const committed = async (client) => Number((await client.query('SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()')).rows[0].xact_commit);

/**
 * One case on a fresh database and engine: `total` rows inserted in batches of BATCH, the i-th
 * batch due `i * intervalMs` after the first (0: at once after the previous one).
 */
async function runCase(server, total, intervalMs) {
  const db = await freshDatabase(server.url);
  let engine;
  const webhook = createServer();
  try {
    await db.sql('CREATE TABLE item (id bigserial PRIMARY KEY, v int NOT NULL)');
    const inserted = new Map();
    const received = new Map();
    let duplicates = 0;
    webhook.on('request', (req, res) => {
      const chunks = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => {
        const at = performance.now();
        const id = Number(JSON.parse(Buffer.concat(chunks).toString()).event.data.new.id);
        if (received.has(id)) duplicates++;
        else received.set(id, at);
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise((r) => webhook.listen(0, '127.0.0.1', r));
    const hook = `http://127.0.0.1:${webhook.address().port}/hook`;

    engine = await startEngine({ SERVICE_GRAPHQL_DATABASE_URL: db.url });
    await engine.post('/v1/metadata', { type: 'pg_track_table', args: { table: 'item' } });
    await engine.post('/v1/metadata', { type: 'pg_create_event_trigger', args: { name: 'item_created', table: 'item', webhook: hook, insert: { columns: '*' } } });

    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    const own = (await client.query('SELECT pg_backend_pid() AS pid')).rows[0].pid;
    const engineCpu0 = cpuMs(engine.pid);
    const backends0 = await backendsCpu(client, own);
    const commits0 = await committed(client);
    const benchCpu0 = process.cpuUsage();
    const insertCpu0 = cpuMs(own);
    const start = performance.now();
    let behind = 0;
    for (let i = 0; i < total / BATCH; i++) {
      const wait = start + i * intervalMs - performance.now();
      if (wait > 0) await sleep(wait);
      else if (intervalMs > 0) behind++;
      const r = await client.query(`INSERT INTO item (v) SELECT g FROM generate_series(1, ${BATCH}) g RETURNING id`);
      const at = performance.now();
      for (const row of r.rows) inserted.set(Number(row.id), at);
    }
    const insertSeconds = (performance.now() - start) / 1000;
    for (let waited = 0; received.size < total && waited < 120_000; waited += 20) await sleep(20);
    const engineCpu = cpuMs(engine.pid) - engineCpu0;
    const benchCpu = process.cpuUsage(benchCpu0);
    const insertCpu = cpuMs(own) - insertCpu0;
    const backends = await backendsCpu(client, own);
    const databaseCpu = [...backends].reduce((sum, [pid, ms]) => sum + ms - (backends0.get(pid) ?? 0), 0);
    // The inserts' own transactions (one per batch) and this query's are not the engine's.
    const commits = (await committed(client)) - commits0 - total / BATCH - 1;
    await client.end();
    // Deliveries still recorded meanwhile would be duplicates: wait a little for any.
    await sleep(500);
    const last = Math.max(...received.values());
    return {
      total,
      insertSeconds,
      behind,
      received: received.size,
      duplicates,
      perSecond: received.size / ((last - start) / 1000),
      latency: percentiles([...received].map(([id, at]) => at - inserted.get(id))),
      engineCpuPerEvent: engineCpu / received.size,
      databaseCpuPerEvent: databaseCpu / received.size,
      commitsPerEvent: commits / received.size,
      benchCpuPerEvent: (benchCpu.user + benchCpu.system) / 1000 / received.size,
      insertCpuPerEvent: insertCpu / received.size,
    };
  } finally {
    await engine?.stop();
    webhook.close();
    await db.drop();
  }
}

const describe = (r) => [
  `  - delivered ${r.received} of ${r.total} (${r.duplicates} duplicates), ${r.perSecond.toFixed(0)} events/s from the first insert to the last delivery`,
  `  - insert-to-delivery latency p50 ${r.latency.p50.toFixed(0)} ms, p95 ${r.latency.p95.toFixed(0)} ms, p99 ${r.latency.p99.toFixed(0)} ms`,
  `  - per event: engine CPU ${r.engineCpuPerEvent.toFixed(3)} ms, database CPU in the engine's connections ${r.databaseCpuPerEvent.toFixed(3)} ms, ${r.commitsPerEvent.toFixed(3)} of the engine's transactions`,
  `  - per event, beside the engine's: the bench process (webhook and inserts) ${r.benchCpuPerEvent.toFixed(3)} ms of CPU, the inserts' database connection ${r.insertCpuPerEvent.toFixed(3)} ms`,
];

const server = await databaseServer();
const lines = [];
try {
  if (RATE > 0 && SECONDS > 0) {
    const r = await runCase(server, RATE * SECONDS, (1000 * BATCH) / RATE);
    lines.push(`- steady: ${r.total} INSERTs at ${RATE}/s for ${SECONDS} s (batches of ${BATCH}; the inserts took ${r.insertSeconds.toFixed(1)} s, ${r.behind} batches late)`, ...describe(r));
    for (const line of lines) console.log(line);
  }
  if (BURST > 0) {
    const r = await runCase(server, BURST, 0);
    const burst = [`- burst: ${r.total} INSERTs as fast as one client can (batches of ${BATCH}; they took ${r.insertSeconds.toFixed(1)} s)`, ...describe(r)];
    for (const line of burst) console.log(line);
    lines.push(...burst);
  }
  const date = new Date().toISOString().slice(0, 10);
  writeResultsSection(
    '## events (`bench/events.mjs`)',
    `## events (\`bench/events.mjs\`)

Event triggers delivered by one engine (default settings: fetch batch 100, interval 1 s, HTTP pool
100) to a webhook in the bench process, one event trigger on INSERT, the webhook answering at once. ${date}, ${os.cpus().length} × ${os.cpus()[0]?.model.split(' ').slice(0, 2).join(' ') ?? 'cpu'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, the database and the engine on the same machine:

${lines.join('\n')}
`,
  );
} finally {
  await server.stop();
}
