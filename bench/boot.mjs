// Boot and the first query (not shaped like any before it, so a plan-cache miss through the
// schema builder and a compiler pool): RUNS engine starts on one small database. Measures the
// time from spawning the engine to its "server ready", the first query's round trip right after
// (it pays for what a thread loads on its first task, or for a snapshot still being followed),
// and the two together: what a client that starts the engine and queries it waits.
//
// Environment: SERVICE_BENCH_DATABASE_URL, else SERVICE_TEST_DATABASE_URL, else an embedded
// PostgreSQL; SERVICE_BENCH_BOOT_RUNS (7).
import { freshDatabase, percentiles, startEngine } from './_support.mjs';
import { databaseServer } from './graphql/support.mjs';

const RUNS = Number(process.env.SERVICE_BENCH_BOOT_RUNS ?? 7);

const server = await databaseServer();
const db = await freshDatabase(server.url);
try {
  await db.sql('CREATE TABLE item (id int PRIMARY KEY, name text); INSERT INTO item VALUES (1, $$a$$)');
  const setup = await startEngine({ SERVICE_GRAPHQL_DATABASE_URL: db.url });
  await setup.post('/v1/metadata', { type: 'pg_track_table', args: { table: 'item' } });
  await setup.stop();
  const boots = [];
  const firsts = [];
  const totals = [];
  for (let i = 0; i < RUNS; i++) {
    const engine = await startEngine({ SERVICE_GRAPHQL_DATABASE_URL: db.url });
    boots.push(engine.bootMs);
    const t = performance.now();
    const r = await engine.post('/v1/graphql', { query: `{ first_${i}: item { id name } }` });
    firsts.push(performance.now() - t);
    totals.push(engine.bootMs + firsts.at(-1));
    if (r.errors) throw new Error(JSON.stringify(r.errors));
    await engine.stop();
  }
  const b = percentiles(boots);
  const f = percentiles(firsts);
  console.log(`- boot to ready (${RUNS} starts): p50 ${b.p50.toFixed(0)} ms, max ${Math.max(...boots).toFixed(0)} ms`);
  console.log(`- first query after ready: p50 ${f.p50.toFixed(1)} ms, max ${Math.max(...firsts).toFixed(1)} ms`);
  console.log(`- spawn to the first query answered: p50 ${percentiles(totals).p50.toFixed(0)} ms, max ${Math.max(...totals).toFixed(0)} ms`);
} finally {
  await db.drop();
  await server.stop();
}
