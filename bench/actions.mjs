// Synchronous actions (the goal: "a synchronous action adds under 1 ms of engine CPU over the
// handler's own time"). One engine, a query action whose handler (in the bench process) answers
// at once; REQUESTS calls at CONCURRENCY at a time, after a warm-up. Measures the engine's CPU per
// call (all its threads, from /proc: the handler runs elsewhere, so none of its time is counted),
// the same for `{ __typename }` (what any request costs: HTTP, session, plan-cache hit), their
// difference (what the action's step adds: the handler call, the output check), and the call's
// latency. Writes bench/RESULTS.md ("## actions").
//
// Environment: SERVICE_BENCH_DATABASE_URL, else an embedded PostgreSQL;
// SERVICE_BENCH_ACTIONS_REQUESTS (5000), SERVICE_BENCH_ACTIONS_CONCURRENCY (16).
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import os from 'node:os';
import { freshDatabase, percentiles, startEngine } from './_support.mjs';
import { databaseServer, writeResultsSection } from './graphql/support.mjs';

const REQUESTS = Number(process.env.SERVICE_BENCH_ACTIONS_REQUESTS ?? 5000);
const CONCURRENCY = Number(process.env.SERVICE_BENCH_ACTIONS_CONCURRENCY ?? 16);
const WARM_UP = 500;

/** CPU milliseconds the process has used (all threads), from /proc (utime + stime, in 100 Hz clock ticks). */
function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** `count` POSTs of `body`, `CONCURRENCY` at a time; the engine's CPU ms per call and each call's latency. */
async function run(engine, body, count) {
  const latencies = [];
  let next = 0;
  const text = JSON.stringify(body);
  const cpu0 = cpuMs(engine.pid);
  const worker = async () => {
    while (next < count) {
      next++;
      const t = performance.now();
      const res = await fetch(`${engine.url}/v1/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: text });
      const answer = await res.text();
      latencies.push(performance.now() - t);
      if (!answer.startsWith('{"data"')) throw new Error(`unexpected answer: ${answer.slice(0, 200)}`);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return { cpuPerCall: (cpuMs(engine.pid) - cpu0) / count, latency: percentiles(latencies) };
}

const server = await databaseServer();
const db = await freshDatabase(server.url);
const handler = createServer((req, res) => {
  req.resume();
  req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"greeting":"hello","count":1}'));
});
let engine;
try {
  await new Promise((r) => handler.listen(0, '127.0.0.1', r));
  engine = await startEngine({ SERVICE_GRAPHQL_DATABASE_URL: db.url });
  await engine.post('/v1/metadata', { type: 'set_custom_types', args: { objects: [{ name: 'Greeting', fields: [{ name: 'greeting', type: 'String!' }, { name: 'count', type: 'Int!' }] }] } });
  await engine.post('/v1/metadata', {
    type: 'create_action',
    args: { name: 'hello', definition: { type: 'query', handler: `http://127.0.0.1:${handler.address().port}/hello`, output_type: 'Greeting!', arguments: [{ name: 'name', type: 'String!' }] } },
  });
  const action = { query: 'query ($n: String!) { hello(name: $n) { greeting count } }', variables: { n: 'bench' } };
  const trivial = { query: '{ __typename }' };
  await run(engine, action, WARM_UP);
  await run(engine, trivial, WARM_UP);
  const a = await run(engine, action, REQUESTS);
  const t = await run(engine, trivial, REQUESTS);
  const lines = [
    `- ${REQUESTS} calls of a query action at ${CONCURRENCY} at a time (handler answering at once, in the bench process): engine CPU ${a.cpuPerCall.toFixed(3)} ms per call; latency p50 ${a.latency.p50.toFixed(2)} ms, p95 ${a.latency.p95.toFixed(2)} ms, p99 ${a.latency.p99.toFixed(2)} ms`,
    `- the same number of \`{ __typename }\`: engine CPU ${t.cpuPerCall.toFixed(3)} ms per request; latency p50 ${t.latency.p50.toFixed(2)} ms`,
    `- what the action's step adds (the handler call, the output check): ${(a.cpuPerCall - t.cpuPerCall).toFixed(3)} ms of engine CPU per call (goal: under 1 ms)`,
  ];
  for (const line of lines) console.log(line);
  const date = new Date().toISOString().slice(0, 10);
  writeResultsSection(
    '## actions (`bench/actions.mjs`)',
    `## actions (\`bench/actions.mjs\`)

Synchronous actions: the engine's CPU per call over /proc. ${date}, ${os.cpus().length} × ${os.cpus()[0]?.model.split(' ').slice(0, 2).join(' ') ?? 'cpu'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, the handler, the database and the engine on the same machine:

${lines.join('\n')}
`,
  );
} finally {
  await engine?.stop();
  handler.close();
  await db.drop();
  await server.stop();
}
