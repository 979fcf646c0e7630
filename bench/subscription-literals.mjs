// Subscriptions that differ only in literals against subscriptions that differ only in
// variables: SUBSCRIBERS subscribers of one document over CONNECTIONS WebSocket connections,
// each with its own id, given as a variable (`$id`), as a literal compared with `_eq`, and as
// a literal list with `_in` and a literal `limit`. Literals are lifted into synthetic variables,
// so each shape should run as one multiplexed query: one statement per refetch interval for
// each batch of 100 cohorts (10 for 1,000 subscribers), not one per literal. Measures, polling
// only (every interval): the multiplexed queries and cohorts running (`/dev/subscriptions`),
// the statements per refetch interval counted by the engine (its debug log: one `live query
// refetched` line per multiplexed statement) and, where the server has `pg_stat_statements`
// loaded (shared_preload_libraries), by the database (calls of multiplexed statements), and the time until every subscriber has its first result. Writes bench/RESULTS.md
// ("## subscription literals").
//
// Environment: SERVICE_BENCH_DATABASE_URL, else SERVICE_TEST_DATABASE_URL, else an embedded PostgreSQL.
import os from 'node:os';
import WebSocket from 'ws';
import { freshDatabase, startEngine } from './_support.mjs';
import { databaseServer, writeResultsSection } from './graphql/support.mjs';

const SUBSCRIBERS = Number(process.env.SERVICE_BENCH_SUBSCRIBERS ?? 1000);
const CONNECTIONS = 50;
const INTERVAL_MS = 1000;
const MEASURE_MS = 10_000;

const SHAPES = [
  { name: 'variables', document: () => 'subscription ($id: Int!) { item(where: {id: {_eq: $id}}) { id title } }', variables: (id) => ({ id }) },
  { name: 'literal `_eq`', document: (id) => `subscription { item(where: {id: {_eq: ${id}}}) { id title } }` },
  { name: 'literal `_in` list and `limit`', document: (id) => `subscription { item(where: {id: {_in: [${id}, ${id + 1}]}}, limit: ${1 + (id % 2)}) { id title } }` },
];

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** One graphql-transport-ws connection subscribing to `payloads`; `onResult()` per result. */
function connect(url, payloads, onResult) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, 'graphql-transport-ws');
    ws.on('error', reject);
    ws.on('open', () => ws.send(JSON.stringify({ type: 'connection_init', payload: { headers: { 'x-service-role': 'reader' } } })));
    ws.on('message', (data) => {
      const m = JSON.parse(data.toString());
      if (m.type === 'connection_ack') {
        payloads.forEach((payload, i) => ws.send(JSON.stringify({ id: String(i), type: 'subscribe', payload })));
        resolve(ws);
      } else if (m.type === 'next') onResult(m.id, m.payload);
      else if (m.type === 'ping') ws.send(JSON.stringify({ type: 'pong' }));
    });
  });
}

const server = await databaseServer();
const db = await freshDatabase(server.url);
// Where the server loads it, pg_stat_statements counts the statements the database runs.
await db.sql('CREATE EXTENSION IF NOT EXISTS pg_stat_statements').catch(() => {});
await db.sql(`CREATE TABLE item (id int PRIMARY KEY, title text NOT NULL);
  INSERT INTO item SELECT g, 'item ' || g FROM generate_series(1, ${SUBSCRIBERS + 1}) g;
  ANALYZE item;`);
const pgVersion = (await db.sql('SHOW server_version')).rows[0].server_version;
const statements = [];
const engine = await startEngine(
  {
    SERVICE_GRAPHQL_DATABASE_URL: db.url,
    SERVICE_GRAPHQL_LIVE_QUERIES_MULTIPLEXED_REFETCH_INTERVAL: String(INTERVAL_MS),
    SERVICE_GRAPHQL_LIVE_QUERIES_CHANGE_CAPTURE: 'false',
    SERVICE_GRAPHQL_ENABLED_APIS: 'metadata,graphql,developer',
    SERVICE_GRAPHQL_LOG_LEVEL: 'debug',
    SERVICE_GRAPHQL_ENABLED_LOG_TYPES: 'startup, livequery-poller-log',
  },
  (entry) => entry.message === 'live query refetched' && statements.push(entry.cohorts),
);
const { metadata } = await engine.post('/v1/metadata', { type: 'export_metadata', version: 2, args: {} });
metadata.sources[0].tables = [{ table: { schema: 'public', name: 'item' }, select_permissions: [{ role: 'reader', permission: { columns: ['id', 'title'], filter: {} } }] }];
await engine.post('/v1/metadata', { type: 'replace_metadata', version: 2, args: { metadata } });

/** Multiplexed queries, cohorts and subscribers running, summed over the multiplexer actors. */
async function running() {
  const { multiplexers } = await (await fetch(`${engine.url}/dev/subscriptions`)).json();
  return multiplexers.reduce((a, c) => ({ queries: a.queries + c.queries, cohorts: a.cohorts + c.cohorts, subscribers: a.subscribers + c.subscribers }));
}

/** Calls of multiplexed statements on the bench database so far (null: pg_stat_statements is not loaded). */
async function multiplexedCalls() {
  try {
    const r = await db.sql(`SELECT coalesce(sum(calls), 0) AS calls FROM pg_stat_statements
      WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) AND query LIKE '%WITH ORDINALITY AS "__subs"%'`);
    return Number(r.rows[0].calls);
  } catch {
    return null;
  }
}

async function measure(shape) {
  const firsts = new Set();
  const url = engine.url.replace('http', 'ws') + '/v1/graphql';
  const started = performance.now();
  const sockets = await Promise.all(
    Array.from({ length: CONNECTIONS }, (_, c) => {
      const ids = Array.from({ length: SUBSCRIBERS / CONNECTIONS }, (_, i) => 1 + c * (SUBSCRIBERS / CONNECTIONS) + i);
      const payloads = ids.map((id) => ({ query: shape.document(id), ...(shape.variables ? { variables: shape.variables(id) } : {}) }));
      return connect(url, payloads, (id) => firsts.add(`${c}:${id}`));
    }),
  );
  while (firsts.size < SUBSCRIBERS) await sleep(20);
  const firstResultsMs = performance.now() - started;
  const counts = await running();
  await sleep(2 * INTERVAL_MS);
  const [n0, c0] = [statements.length, await multiplexedCalls()];
  await sleep(MEASURE_MS);
  const [n1, c1] = [statements.length, await multiplexedCalls()];
  const intervals = MEASURE_MS / INTERVAL_MS;
  const cohorts = statements.slice(n0, n1).reduce((a, b) => a + b, 0);
  for (const ws of sockets) ws.close();
  while ((await running()).queries > 0) await sleep(100);
  return { ...counts, firstResultsMs, engineStatements: (n1 - n0) / intervals, databaseStatements: c0 === null || c1 === null ? null : (c1 - c0) / intervals, cohortsPerStatement: cohorts / Math.max(1, n1 - n0) };
}

const results = [];
for (const shape of SHAPES) results.push({ shape, r: await measure(shape) });
await engine.stop();
await db.drop();
await server.stop();

const machine = `${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} × ${os.cpus()[0].model.trim()}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
const lines = results.map(
  ({ shape, r }) =>
    `${shape.name}: ${r.queries} multiplexed ${r.queries === 1 ? 'query' : 'queries'}, ${r.cohorts} cohorts; per refetch interval ${r.engineStatements.toFixed(1)} statements (engine), ${r.databaseStatements === null ? 'database count n/a' : `${r.databaseStatements.toFixed(1)} (database)`}, ${r.cohortsPerStatement.toFixed(0)} cohorts each; all first results ${r.firstResultsMs.toFixed(0)} ms`,
);
console.log(lines.join('\n'));
writeResultsSection(
  '## subscription literals',
  `## subscription literals (\`bench/subscription-literals.mjs\`)

${SUBSCRIBERS} subscribers of one document over ${CONNECTIONS} WebSocket connections, each with its own id:
given as a variable, as a literal (\`where: {id: {_eq: 17}}\`), and as a literal list and limit
(\`where: {id: {_in: [17, 18]}}, limit: 2\`). Polling only, refetch interval ${INTERVAL_MS} ms, batches of
100 cohorts: one multiplexed query costs ${Math.ceil(SUBSCRIBERS / 100)} statements per interval. Statements counted by the
engine (debug log, \`live query refetched\`) and by the database (\`pg_stat_statements\`: calls of
multiplexed statements); queries and cohorts from \`/dev/subscriptions\`.

${machine}, PostgreSQL ${pgVersion} on the same machine${results[0].r.databaseStatements === null ? '' : ' (a cluster with pg_stat_statements in shared_preload_libraries)'}:

${lines.map((l) => `- ${l}`).join('\n')}

Before lists, \`limit\` and \`offset\` were lifted (commit 9521f0a, this script on 2026-11-28, same
machine and server): the literal \`_in\` list and \`limit\` shape ran 1000 multiplexed queries of one
cohort each, 1000.0 statements per refetch interval (engine and database); the other two shapes
as now (10.0). The first results of literal documents take longer than those of one document
with variables, before as now: each distinct document is parsed, validated and planned once.
`,
);
