// Event triggers: one engine delivering the INSERTs of one table to a local webhook that
// answers at once, while the source takes RATE inserts per second for SECONDS seconds (batches of
// BATCH rows every BATCH / RATE s). Measures: events delivered per second over the run (from the
// first insert to the last delivery), the insert-to-delivery latency (the bench's clock at the
// INSERT's commit to the webhook's receipt), and duplicates. Two instances without duplicates and
// a kill -9 mid-burst are end-to-end tests (test/e2e/event-triggers-instances.test.ts).
// Writes bench/RESULTS.md ("## events").
//
// Environment: SERVICE_BENCH_DATABASE_URL, else SERVICE_TEST_DATABASE_URL, else an embedded PostgreSQL;
// SERVICE_BENCH_EVENTS_RATE (2000), SERVICE_BENCH_EVENTS_SECONDS (10).
import { createServer } from 'node:http';
import os from 'node:os';
import pg from 'pg';
import { freshDatabase, percentiles, startEngine } from './_support.mjs';
import { databaseServer, writeResultsSection } from './graphql/support.mjs';

const RATE = Number(process.env.SERVICE_BENCH_EVENTS_RATE ?? 2000);
const SECONDS = Number(process.env.SERVICE_BENCH_EVENTS_SECONDS ?? 10);
const BATCH = 100;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const server = await databaseServer();
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
  const total = RATE * SECONDS;
  const intervalMs = (1000 * BATCH) / RATE;
  const start = performance.now();
  let behind = 0;
  for (let i = 0; i < total / BATCH; i++) {
    const due = start + i * intervalMs;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    else behind++;
    const r = await client.query(`INSERT INTO item (v) SELECT g FROM generate_series(1, ${BATCH}) g RETURNING id`);
    const at = performance.now();
    for (const row of r.rows) inserted.set(Number(row.id), at);
  }
  const insertSeconds = (performance.now() - start) / 1000;
  await client.end();
  for (let waited = 0; received.size < total && waited < 120_000; waited += 100) await sleep(100);
  const last = Math.max(...received.values());
  const latencies = [...received].map(([id, at]) => at - inserted.get(id));
  const l = percentiles(latencies);

  const lines = [
    `- ${total} INSERTs at ${RATE}/s for ${SECONDS} s (batches of ${BATCH}; the inserts took ${insertSeconds.toFixed(1)} s, ${behind} batches late), one event trigger to a local webhook that answers at once`,
    `- delivered ${received.size} of ${total} (${duplicates} duplicates), ${(received.size / ((last - start) / 1000)).toFixed(0)} events/s from the first insert to the last delivery`,
    `- insert-to-delivery latency p50 ${l.p50.toFixed(0)} ms, p95 ${l.p95.toFixed(0)} ms, p99 ${l.p99.toFixed(0)} ms`,
  ];
  for (const line of lines) console.log(line);
  const date = new Date().toISOString().slice(0, 10);
  writeResultsSection(
    '## events (`bench/events.mjs`)',
    `## events (\`bench/events.mjs\`)

Event triggers delivered by one engine (default settings: fetch batch 100, interval 1 s, HTTP pool
100) to a webhook in the bench process. ${date}, ${os.cpus().length} × ${os.cpus()[0]?.model.split(' ').slice(0, 2).join(' ') ?? 'cpu'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, the database and the engine on the same machine:

${lines.join('\n')}
`,
  );
} finally {
  await engine?.stop();
  webhook.close();
  await db.drop();
  await server.stop();
}
