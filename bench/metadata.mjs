// The metadata API with 500 tracked tables (the goal: p50 under 50 ms for the
// operations, boot to ready under 3 s). Prints one line per measurement.
import os from 'node:os';
import { benchServer, freshDatabase, percentiles, startEngine, timed } from './_support.mjs';

const TABLES = 500;
const COLUMNS = 10;
const ROUNDS = 50;
const BOOTS = 5;

const server = await benchServer();
const db = await freshDatabase(server.url);
const engines = [];
try {
  const columns = Array.from({ length: COLUMNS - 1 }, (_, i) => `c${i} text`).join(', ');
  const ddl = Array.from({ length: TABLES + 1 }, (_, i) => `CREATE TABLE t${i} (id serial PRIMARY KEY, ${columns});`).join('\n');
  await db.sql(ddl);

  const env = { SERVICE_GRAPHQL_DATABASE_URL: db.url };
  const engine = await startEngine(env);
  engines.push(engine);
  const track = (i) => ({ type: 'pg_track_table', args: { table: `t${i}` } });
  const bulkMs = await timed(() => engine.post('/v1/metadata', { type: 'bulk', args: Array.from({ length: TABLES }, (_, i) => track(i)) }));

  // One more table tracked and untracked: each call is a full round trip through the store.
  const trackMs = [];
  const untrackMs = [];
  for (let i = 0; i < ROUNDS; i++) {
    trackMs.push(await timed(() => engine.post('/v1/metadata', track(TABLES))));
    untrackMs.push(await timed(() => engine.post('/v1/metadata', { type: 'pg_untrack_table', args: { table: `t${TABLES}` } })));
  }
  const exportMs = [];
  for (let i = 0; i < ROUNDS; i++) exportMs.push(await timed(() => engine.post('/v1/metadata', { type: 'export_metadata', version: 2, args: {} })));

  const bootMs = [];
  for (let i = 0; i < BOOTS; i++) {
    const e = await startEngine(env);
    bootMs.push(e.bootMs);
    await e.stop();
  }

  const fmt = (name, s) => `${name.padEnd(34)} p50 ${s.p50.toFixed(1).padStart(7)} ms   p95 ${s.p95.toFixed(1).padStart(7)} ms   (n=${s.n})`;
  console.log(`${TABLES} tracked tables of ${COLUMNS} columns; ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}; node ${process.version}`);
  console.log(`${'bulk tracking the 500 tables'.padEnd(34)} ${bulkMs.toFixed(0).padStart(11)} ms`);
  console.log(fmt('pg_track_table round trip', percentiles(trackMs)));
  console.log(fmt('pg_untrack_table round trip', percentiles(untrackMs)));
  console.log(fmt('export_metadata (version 2)', percentiles(exportMs)));
  console.log(fmt('boot to ready (new process)', percentiles(bootMs)));
} finally {
  for (const e of engines) await e.stop();
  await db.drop();
  await server.stop();
}
