// Multiplexed live queries: SUBSCRIBERS subscribers over USERS WebSocket
// connections, each connection a different `x-service-user-id` (USERS distinct session values,
// so USERS cohorts of one multiplexed query, permission filter on the owner column), and
// OTHER_SUBSCRIBERS subscribers of a query on another table (one cohort). Run twice: with change
// capture (the default) and with polling only (SERVICE_GRAPHQL_LIVE_QUERIES_CHANGE_CAPTURE=false).
// Measures: the time until every subscriber has its first result; while idle, the multiplexed
// statements per second the engine runs (its debug log: one `live query refetched` line per
// statement, with its cohort count) and the engine's CPU; the push latency after a write (an
// UPDATE of one user's row, about one a second at a random phase, until that user's subscribers
// get the new result), and meanwhile the statements of the query on the other table (the only
// statements with one cohort). Writes bench/RESULTS.md ("## subscriptions").
//
// Environment: SERVICE_BENCH_DATABASE_URL, else SERVICE_TEST_DATABASE_URL, else an embedded PostgreSQL.
import { readFileSync } from 'node:fs';
import os from 'node:os';
import WebSocket from 'ws';
import { freshDatabase, percentiles, startEngine } from './_support.mjs';
import { databaseServer, writeResultsSection } from './graphql/support.mjs';

const USERS = 1000;
/** The goal shape: 10,000 subscriptions over 2,000 connections (two per user), connecting 1,000 at a time. */
const CONNECTIONS = Number(process.env.SERVICE_BENCH_SUBSCRIPTION_CONNECTIONS ?? 2000);
const PER_CONNECTION = 5;
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

/** One graphql-transport-ws connection as `user`, with PER_CONNECTION subscriptions; `onResult(user, payload)` per result. */
function connectUser(url, user, onResult, query = QUERY, subscriptions = PER_CONNECTION, headers = { 'x-service-role': 'user', 'x-service-user-id': String(user) }) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, 'graphql-transport-ws');
    ws.on('error', reject);
    ws.on('open', () => ws.send(JSON.stringify({ type: 'connection_init', payload: { headers } })));
    ws.on('message', (data) => {
      const m = JSON.parse(data.toString());
      if (m.type === 'connection_ack') {
        for (let i = 0; i < subscriptions; i++) ws.send(JSON.stringify({ id: String(i), type: 'subscribe', payload: { query } }));
        resolve(ws);
      } else if (m.type === 'next') onResult(user, m.payload);
      else if (m.type === 'ping') ws.send(JSON.stringify({ type: 'pong' }));
    });
  });
}

const server = await databaseServer();

/** One run against a fresh database: `capture` turns change capture on or off. */
async function measure(capture) {
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

  /** Multiplexed statements per second (and cohorts per statement) and the engine's CPU over `ms`. */
  const rate = async (ms) => {
    const [n0, cpu0] = [statements.length, cpuSeconds(engine.pid)];
    await sleep(ms);
    const [n1, cpu1] = [statements.length, cpuSeconds(engine.pid)];
    const cohorts = statements.slice(n0, n1).reduce((a, b) => a + b, 0);
    return { statementsPerSecond: (n1 - n0) / (ms / 1000), cohortsPerStatement: cohorts / Math.max(1, n1 - n0), cpuPercent: (100 * (cpu1 - cpu0)) / (ms / 1000) };
  };
  const baseline = await rate(IDLE_MS / 2);

  // Results by connection: how many had one, and which user waits for which row's new title.
  const firsts = new Set();
  const waiting = new Map();
  const onResult = (connection, user, payload) => {
    firsts.add(connection);
    const w = waiting.get(user);
    if (w && JSON.stringify(payload).includes(w.title)) {
      waiting.delete(user);
      w.resolve(performance.now() - w.at);
    }
  };
  const wsUrl = engine.url.replace('http', 'ws') + '/v1/graphql';
  const subscribeStart = performance.now();
  const sockets = [];
  let refused = 0;
  // Bursts of BURST connections at once, each subscribing as soon as it is acknowledged.
  for (let from = 0; from < CONNECTIONS; from += BURST) {
    const burst = Array.from({ length: Math.min(BURST, CONNECTIONS - from) }, (_, i) => from + i);
    const settled = await Promise.allSettled(burst.map((c) => connectUser(wsUrl, 1 + (c % USERS), (user, payload) => onResult(c, user, payload))));
    for (const r of settled) r.status === 'fulfilled' ? sockets.push(r.value) : refused++;
  }
  while (firsts.size < sockets.length) await sleep(20);
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

const runs = [
  { name: 'change capture', r: await measure(true) },
  { name: 'polling only', r: await measure(false) },
];
await server.stop();

const machine = `${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} × ${os.cpus()[0].model.trim()}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
const lines = runs.flatMap(({ name, r }) => [
  `${name}: connections acknowledged ${r.acked} of ${CONNECTIONS} (${r.refused} refused), in bursts of ${BURST}; all first results: ${r.firstResultsMs.toFixed(0)} ms; engine RSS ${r.rssSubscribed.toFixed(0)} MiB, ${r.rssIdle.toFixed(0)} MiB after the idle period`,
  `${name}: idle: ${r.idle.statementsPerSecond.toFixed(1)} multiplexed statements/s, ${r.idle.cohortsPerStatement.toFixed(0)} cohorts each; engine CPU ${r.idle.cpuPercent.toFixed(1)} % (${r.baseline.cpuPercent.toFixed(1)} % without subscribers)`,
  `${name}: push latency after an UPDATE (about one a second; refetch interval ${INTERVAL_MS} ms): p50 ${r.latency.p50.toFixed(0)} ms, p95 ${r.latency.p95.toFixed(0)} ms, p99 ${r.latency.p99.toFixed(0)} ms, n ${r.latency.n}`,
  `${name}: meanwhile, statements of the query on the table not written: ${r.otherPerSecond.toFixed(2)}/s`,
]);
lines.unshift(`subscribers: ${CONNECTIONS * PER_CONNECTION} over ${CONNECTIONS} connections (${USERS} distinct x-service-user-id, ${USERS} cohorts), and ${OTHER_SUBSCRIBERS} of a query on another table`);
console.log(lines.join('\n'));
writeResultsSection(
  '## subscriptions',
  `## subscriptions (\`bench/subscriptions.mjs\`)

Multiplexed live queries, with change capture (statement-level triggers and LISTEN: a query
runs only after a write to a table it reads) and with polling only
(\`SERVICE_GRAPHQL_LIVE_QUERIES_CHANGE_CAPTURE=false\`). ${CONNECTIONS * PER_CONNECTION} subscribers of one subscription (\`item\`, permission
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
