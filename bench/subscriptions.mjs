// Multiplexed live queries: SUBSCRIBERS subscribers over USERS WebSocket
// connections, each connection a different `x-service-user-id` (USERS distinct session values,
// so USERS cohorts of one multiplexed query, permission filter on the owner column), and
// OTHER_SUBSCRIBERS subscribers of a query on another table (one cohort). Three cases, each with
// its own engine and database, run in this order:
// - `change-capture` (the default capture on) and `polling` (SERVICE_GRAPHQL_LIVE_QUERIES_CHANGE_CAPTURE=false):
//   the time until every subscriber has its first result and the engine's RSS then; while idle, the
//   multiplexed statements per second the engine runs (its debug log: one `live query refetched` line
//   per statement, with its cohort count) and the engine's CPU; the push latency after a write (an
//   UPDATE of one user's row, about one a second at a random phase, until that user's subscribers
//   get the new result), and meanwhile the statements of the query on the other table (the only
//   statements with one cohort).
// - `write-heavy` (change capture): WRITE_SUBSCRIPTIONS subscribers of the same query over the same
//   USERS cohorts, WRITE_RATE UPDATEs a second for WRITE_SECONDS, each of a random user's row to a
//   growing number; measures the engine's CPU over the writes (from /proc), the results pushed, and
//   how long after the last write every subscriber has its cohort's final state.
// Writes bench/RESULTS.md ("## subscriptions").
//
// Environment: SERVICE_BENCH_DATABASE_URL, else SERVICE_TEST_DATABASE_URL, else an embedded PostgreSQL;
// SERVICE_BENCH_SUBSCRIPTION_CONNECTIONS (2000) and SERVICE_BENCH_SUBSCRIPTIONS_PER_CONNECTION (5):
// the first two cases' shape; SERVICE_BENCH_SUBSCRIPTION_CASES: the cases to run, comma-separated
// (all three); SERVICE_BENCH_WRITE_SUBSCRIPTIONS (100000), SERVICE_BENCH_WRITE_SUBSCRIPTIONS_PER_CONNECTION
// (10), SERVICE_BENCH_WRITE_RATE (1000 a second), SERVICE_BENCH_WRITE_SECONDS (10): the write-heavy
// case's. Many connections need as many descriptors: `ulimit -n` in the shell that runs it.
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import WebSocket from 'ws';
import { freshDatabase, percentiles, startEngine } from './_support.mjs';
import { databaseServer, writeResultsSection } from './graphql/support.mjs';

const USERS = 1000;
/** The goal shape: 10,000 subscriptions over 2,000 connections (two per user), connecting 1,000 at a time. */
const CONNECTIONS = Number(process.env.SERVICE_BENCH_SUBSCRIPTION_CONNECTIONS ?? 2000);
const PER_CONNECTION = Number(process.env.SERVICE_BENCH_SUBSCRIPTIONS_PER_CONNECTION ?? 5);
const CASES = (process.env.SERVICE_BENCH_SUBSCRIPTION_CASES ?? 'change-capture,polling,write-heavy').split(',').map((c) => c.trim());
const WRITE_SUBSCRIPTIONS = Number(process.env.SERVICE_BENCH_WRITE_SUBSCRIPTIONS ?? 100_000);
const WRITE_PER_CONNECTION = Number(process.env.SERVICE_BENCH_WRITE_SUBSCRIPTIONS_PER_CONNECTION ?? 10);
const WRITE_RATE = Number(process.env.SERVICE_BENCH_WRITE_RATE ?? 1000);
const WRITE_SECONDS = Number(process.env.SERVICE_BENCH_WRITE_SECONDS ?? 10);
/** How long the write-heavy case waits for the last subscriber to converge before it counts it as stale. */
const CONVERGE_TIMEOUT_MS = 10_000;
const BURST = 1000;
const ROWS_PER_USER = 10;
const INTERVAL_MS = 1000;
const IDLE_MS = 10_000;
const WRITES = 40;
const OTHER_SUBSCRIBERS = 10;
const QUERY = 'subscription { item(order_by: {id: asc}) { id title n } }';
const OTHER_QUERY = 'subscription { other(order_by: {id: asc}) { id } }';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const rssMiB = (pid) => Number(readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)[1]) / 1024;

/** CPU seconds (user + system) a process has used. */
function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  // utime and stime, in clock ticks (100 per second on Linux).
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** A result message's start, as the engine writes it: the payload (spliced) follows. */
const RESULT = /^\{"id":"(\d+)","type":"next","payload":/;

/**
 * One graphql-transport-ws connection as `user`, with `subscriptions` subscriptions (ids 0, 1,
 * ...); `onResult(user, payload, id)` per result, its payload as text: not parsed, as this
 * process receives tens of thousands a second in the write-heavy case.
 */
function connectUser(url, user, onResult, query = QUERY, subscriptions = PER_CONNECTION, headers = { 'x-service-role': 'user', 'x-service-user-id': String(user) }) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, 'graphql-transport-ws');
    ws.on('error', reject);
    ws.on('open', () => ws.send(JSON.stringify({ type: 'connection_init', payload: { headers } })));
    ws.on('message', (data) => {
      const text = data.toString();
      const result = RESULT.exec(text);
      if (result) return onResult(user, text.slice(result[0].length, -1), Number(result[1]));
      const m = JSON.parse(text);
      if (m.type === 'connection_ack') {
        for (let i = 0; i < subscriptions; i++) ws.send(JSON.stringify({ id: String(i), type: 'subscribe', payload: { query } }));
        resolve(ws);
      } else if (m.type === 'ping') ws.send(JSON.stringify({ type: 'pong' }));
    });
  });
}

const server = await databaseServer();

/** A fresh database with the tables and an engine serving them (`capture`: change capture on or off); `statements` fills with the cohort count of each multiplexed statement. */
async function setUp(capture) {
  const db = await freshDatabase(server.url);
  await db.sql(`CREATE TABLE item (id serial PRIMARY KEY, owner int NOT NULL, title text NOT NULL, n int NOT NULL DEFAULT 0);
    CREATE INDEX ON item (owner);
    INSERT INTO item (owner, title) SELECT 1 + (g % ${USERS}), 'item ' || g FROM generate_series(0, ${USERS * ROWS_PER_USER - 1}) g;
    ANALYZE item;
    CREATE TABLE other (id int PRIMARY KEY); INSERT INTO other VALUES (1);`);
  const statements = [];
  const pgVersion = (await db.sql('SHOW server_version')).rows[0].server_version;
  const engine = await startEngine(
    {
      SERVICE_GRAPHQL_DATABASE_URL: db.url,
      SERVICE_GRAPHQL_LIVE_QUERIES_MULTIPLEXED_REFETCH_INTERVAL: String(INTERVAL_MS),
      SERVICE_GRAPHQL_LIVE_QUERIES_CHANGE_CAPTURE: String(capture),
      SERVICE_GRAPHQL_LOG_LEVEL: 'debug',
      SERVICE_GRAPHQL_ENABLED_LOG_TYPES: 'startup, livequery-poller-log',
    },
    (entry) => entry.message === 'live query refetched' && statements.push(entry.cohorts),
  );
  const { metadata } = await engine.post('/v1/metadata', { type: 'export_metadata', version: 2, args: {} });
  metadata.sources[0].tables = [
    { table: { schema: 'public', name: 'item' }, select_permissions: [{ role: 'user', permission: { columns: ['id', 'title', 'n'], filter: { owner: { _eq: 'X-Service-User-Id' } } } }] },
    { table: { schema: 'public', name: 'other' } },
  ];
  await engine.post('/v1/metadata', { type: 'replace_metadata', version: 2, args: { metadata } });
  return { db, engine, statements, pgVersion, wsUrl: engine.url.replace('http', 'ws') + '/v1/graphql' };
}

/** `connections` connections of `perConnection` subscriptions each, connection `c` as user `1 + c % USERS`, BURST at a time; `onResult(c, user, payload, id)`. */
async function connectAll(wsUrl, connections, perConnection, onResult) {
  const sockets = [];
  let refused = 0;
  // Bursts of BURST connections at once, each subscribing as soon as it is acknowledged.
  for (let from = 0; from < connections; from += BURST) {
    const burst = Array.from({ length: Math.min(BURST, connections - from) }, (_, i) => from + i);
    const settled = await Promise.allSettled(burst.map((c) => connectUser(wsUrl, 1 + (c % USERS), (user, payload, id) => onResult(c, user, payload, id), QUERY, perConnection)));
    for (const r of settled) r.status === 'fulfilled' ? sockets.push(r.value) : refused++;
  }
  return { sockets, refused };
}

/** The change-capture or polling case. */
async function measure(capture) {
  const { db, engine, statements, pgVersion, wsUrl } = await setUp(capture);

  /** Multiplexed statements per second (and cohorts per statement) and the engine's CPU over `ms`. */
  const rate = async (ms) => {
    const [n0, cpu0] = [statements.length, cpuSeconds(engine.pid)];
    await sleep(ms);
    const [n1, cpu1] = [statements.length, cpuSeconds(engine.pid)];
    const cohorts = statements.slice(n0, n1).reduce((a, b) => a + b, 0);
    return { statementsPerSecond: (n1 - n0) / (ms / 1000), cohortsPerStatement: cohorts / Math.max(1, n1 - n0), cpuPercent: (100 * (cpu1 - cpu0)) / (ms / 1000) };
  };
  const baseline = await rate(IDLE_MS / 2);

  // Subscriptions that had a result, and which user waits for which row's new title.
  const firsts = new Set();
  const waiting = new Map();
  const onResult = (connection, user, payload, id) => {
    firsts.add(connection * PER_CONNECTION + id);
    const w = waiting.get(user);
    if (w && payload.includes(w.title)) {
      waiting.delete(user);
      w.resolve(performance.now() - w.at);
    }
  };
  const subscribeStart = performance.now();
  const { sockets, refused } = await connectAll(wsUrl, CONNECTIONS, PER_CONNECTION, onResult);
  while (firsts.size < sockets.length * PER_CONNECTION) await sleep(20);
  const firstResultsMs = performance.now() - subscribeStart;
  const rssSubscribed = rssMiB(engine.pid);
  sockets.push(await connectUser(wsUrl, 0, () => {}, OTHER_QUERY, OTHER_SUBSCRIBERS, { 'x-service-role': 'admin' }));

  await sleep(2 * INTERVAL_MS);
  const idle = await rate(IDLE_MS);
  const rssIdle = rssMiB(engine.pid);

  const latencies = [];
  const writesFrom = statements.length;
  const writesStart = performance.now();
  for (let i = 0; i < WRITES; i++) {
    // A user with subscribers (fewer connections than users leave some without).
    const user = 1 + Math.floor(Math.random() * Math.min(USERS, CONNECTIONS));
    const title = `changed ${i}`;
    const at = performance.now();
    const arrived = new Promise((resolve) => waiting.set(user, { title, at, resolve }));
    await db.sql(`UPDATE item SET title = '${title}' WHERE id = (SELECT min(id) FROM item WHERE owner = ${user})`);
    latencies.push(await arrived);
    if (process.env.SERVICE_BENCH_VERBOSE) console.log(`write ${i}: ${latencies.at(-1).toFixed(0)} ms`);
    // About one write a second, at a uniformly random phase against the refetch timer (polling
    // results arrive right after a refetch).
    await sleep(Math.max(0, at + INTERVAL_MS + Math.random() * INTERVAL_MS - performance.now()));
  }
  const writesSeconds = (performance.now() - writesStart) / 1000;
  const otherPerSecond = statements.slice(writesFrom).filter((c) => c === 1).length / writesSeconds;
  const latency = percentiles(latencies);

  for (const ws of sockets) ws.close();
  await engine.stop();
  await db.drop();
  return { pgVersion, baseline, acked: sockets.length - 1, refused, firstResultsMs, rssSubscribed, rssIdle, idle, latency, otherPerSecond };
}

/**
 * The write-heavy case: WRITE_RATE UPDATEs a second for WRITE_SECONDS, each setting `n` of a
 * random user's first row to the next number (never lower: writes of one row may commit out of
 * order across connections), so that a cohort's final state is the highest number written to it.
 */
async function measureWrites() {
  const FIRST_N = /"n"\s*:\s*(\d+)/;
  const { db, engine, statements, wsUrl } = await setUp(true);
  const connections = Math.ceil(WRITE_SUBSCRIPTIONS / WRITE_PER_CONNECTION);
  // Each subscriber's last `n` of its cohort's first row (-1: no result yet) and when it came;
  // after the last write, those not yet at their cohort's final state.
  const total = connections * WRITE_PER_CONNECTION;
  const lastN = new Int32Array(total).fill(-1);
  const lastAt = new Float64Array(total);
  let pushes = 0;
  let final = null;
  const pending = new Set();
  const onResult = (connection, user, payload, id) => {
    const i = connection * WRITE_PER_CONNECTION + id;
    // The first row's `n` (the row written), read without parsing the payload.
    lastN[i] = Number(FIRST_N.exec(payload)[1]);
    lastAt[i] = performance.now();
    pushes++;
    if (final && pending.has(i) && lastN[i] === final[user]) pending.delete(i);
  };
  const subscribeStart = performance.now();
  const { sockets, refused } = await connectAll(wsUrl, connections, WRITE_PER_CONNECTION, onResult);
  while (lastN.filter((n) => n >= 0).length < sockets.length * WRITE_PER_CONNECTION) await sleep(50);
  const firstResultsMs = performance.now() - subscribeStart;
  const rssSubscribed = rssMiB(engine.pid);
  await sleep(2 * INTERVAL_MS);

  const writer = new Worker(new URL('./subscriptions/writes.mjs', import.meta.url), { workerData: { url: db.url, users: USERS, rate: WRITE_RATE, seconds: WRITE_SECONDS } });
  const [pushes0, statements0, cpu0, t0] = [pushes, statements.length, cpuSeconds(engine.pid), performance.now()];
  const { highest, startedAt, endedAt } = await new Promise((resolve, reject) => writer.once('message', resolve).once('error', reject));
  const [cpu1, statements1, t1] = [cpuSeconds(engine.pid), statements.length, performance.now()];
  // The writer's times on this thread's clock.
  const [start, lastWrite] = [startedAt - performance.timeOrigin, endedAt - performance.timeOrigin];
  final = highest;
  for (let c = 0; c < connections; c++) {
    for (let id = 0; id < WRITE_PER_CONNECTION; id++) {
      const i = c * WRITE_PER_CONNECTION + id;
      // A subscriber with no result at all is one of a refused connection.
      if (lastN[i] !== -1 && lastN[i] !== final[1 + (c % USERS)]) pending.add(i);
    }
  }
  while (pending.size > 0 && performance.now() - lastWrite < CONVERGE_TIMEOUT_MS) await sleep(10);
  // When the last subscriber got its final state (some may have got it before this thread heard the writer was done).
  let convergedAt = lastWrite;
  for (let i = 0; i < total; i++) if (!pending.has(i) && lastAt[i] > convergedAt) convergedAt = lastAt[i];
  const writeSeconds = (lastWrite - start) / 1000;
  const result = {
    connections,
    acked: sockets.length,
    refused,
    firstResultsMs,
    rssSubscribed,
    writeSeconds,
    writesPerSecond: (WRITE_RATE * WRITE_SECONDS) / writeSeconds,
    cpuPercent: (100 * (cpu1 - cpu0)) / ((t1 - t0) / 1000),
    statementsPerSecond: (statements1 - statements0) / writeSeconds,
    pushesPerSecond: (pushes - pushes0) / ((convergedAt - start) / 1000),
    convergedMs: convergedAt - lastWrite,
    stale: pending.size,
  };
  for (const ws of sockets) ws.close();
  await engine.stop();
  await db.drop();
  return result;
}

const runs = [];
if (CASES.includes('change-capture')) runs.push({ name: 'change capture', r: await measure(true) });
if (CASES.includes('polling')) runs.push({ name: 'polling only', r: await measure(false) });
const writeHeavy = CASES.includes('write-heavy') ? await measureWrites() : null;
await server.stop();

const machine = `${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} × ${os.cpus()[0].model.trim()}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
const lines = runs.flatMap(({ name, r }) => [
  `${name}: connections acknowledged ${r.acked} of ${CONNECTIONS} (${r.refused} refused), in bursts of ${BURST}; all first results: ${r.firstResultsMs.toFixed(0)} ms; engine RSS ${r.rssSubscribed.toFixed(0)} MiB, ${r.rssIdle.toFixed(0)} MiB after the idle period`,
  `${name}: idle: ${r.idle.statementsPerSecond.toFixed(1)} multiplexed statements/s, ${r.idle.cohortsPerStatement.toFixed(0)} cohorts each; engine CPU ${r.idle.cpuPercent.toFixed(1)} % (${r.baseline.cpuPercent.toFixed(1)} % without subscribers)`,
  `${name}: push latency after an UPDATE (about one a second; refetch interval ${INTERVAL_MS} ms): p50 ${r.latency.p50.toFixed(0)} ms, p95 ${r.latency.p95.toFixed(0)} ms, p99 ${r.latency.p99.toFixed(0)} ms, n ${r.latency.n}`,
  `${name}: meanwhile, statements of the query on the table not written: ${r.otherPerSecond.toFixed(2)}/s`,
]);
if (runs.length > 0) lines.unshift(`subscribers: ${CONNECTIONS * PER_CONNECTION} over ${CONNECTIONS} connections (${USERS} distinct x-service-user-id, ${USERS} cohorts), and ${OTHER_SUBSCRIBERS} of a query on another table`);
if (writeHeavy) {
  const w = writeHeavy;
  lines.push(
    `write-heavy: ${w.connections * WRITE_PER_CONNECTION} subscribers over ${w.connections} connections (${w.acked} acknowledged, ${w.refused} refused), ${USERS} cohorts; all first results: ${w.firstResultsMs.toFixed(0)} ms; engine RSS ${w.rssSubscribed.toFixed(0)} MiB`,
    `write-heavy: ${(w.writesPerSecond * w.writeSeconds).toFixed(0)} UPDATEs in ${w.writeSeconds.toFixed(1)} s (${w.writesPerSecond.toFixed(0)}/s) over random cohorts: engine CPU ${w.cpuPercent.toFixed(1)} % of one core; ${w.statementsPerSecond.toFixed(1)} multiplexed statements/s; ${w.pushesPerSecond.toFixed(0)} results pushed/s`,
    `write-heavy: every subscriber at its cohort's final state ${w.convergedMs.toFixed(0)} ms after the last write (refetch interval ${INTERVAL_MS} ms); not converged after ${CONVERGE_TIMEOUT_MS} ms: ${w.stale}`,
  );
}
console.log(lines.join('\n'));
// A run of some cases only (while measuring a change) leaves the recorded section as it is.
if (runs.length === 2 && writeHeavy) writeResultsSection(
  '## subscriptions',
  `## subscriptions (\`bench/subscriptions.mjs\`)

Multiplexed live queries, with change capture (statement-level triggers and LISTEN: a query
runs only after a write to a table it reads) and with polling only
(\`SERVICE_GRAPHQL_LIVE_QUERIES_CHANGE_CAPTURE=false\`), and a write-heavy case (change capture, ${WRITE_RATE} writes/s). ${CONNECTIONS * PER_CONNECTION} subscribers of one subscription (\`item\`, permission
filter \`owner = X-Service-User-Id\`, ${ROWS_PER_USER} rows each) over ${CONNECTIONS} WebSocket connections
(${PER_CONNECTION} each, connecting ${BURST} at a time) of ${USERS} distinct user ids: ${USERS} cohorts, so ${Math.ceil(USERS / 100)} statements per refetch at the
default batch size (100), where one statement per cohort (before multiplexing) would be
${USERS} per second. Statements counted in the engine's debug log (\`live query refetched\`,
one line per multiplexed statement with its cohort count).

${machine}, PostgreSQL ${runs[0].r.pgVersion} on the same machine:

${lines.map((l) => `- ${l}`).join('\n')}

Before multiplexing (commit 8085e00, one statement per cohort, this script on 2026-11-25): all
first results 3972 ms; idle engine CPU 14.8 % for 1000 statements/s; push latency p50 677 ms,
p95 1023 ms.
`,
);
