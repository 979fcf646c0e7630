// Several engines on one database (docs/operations.md): two engines under mixed load for SECONDS
// seconds (INSERTS_PER_SECOND GraphQL inserts, each an event for a local webhook; SUBSCRIBERS live
// subscribers of counters updated ten times a second; a query every 50 ms; a table made by run_sql
// and tracked through one engine every METADATA_EVERY seconds, queried through the other), each
// engine stopped in turn by kill -9 or SIGTERM and started again (test/support/several-engines.mjs,
// which the end-to-end test runs shorter). Reports restart-to-healthy times, how soon the other
// engine served a new table, event duplicates and insert-to-delivery latency, and what was lost
// (nothing, or the run says so). Writes bench/RESULTS.md ("## several engines").
//
// Environment: SERVICE_BENCH_DATABASE_URL, else SERVICE_TEST_DATABASE_URL, else an embedded PostgreSQL;
// SERVICE_BENCH_SEVERAL_SECONDS (90), SERVICE_BENCH_SEVERAL_SUBSCRIBERS (200), SERVICE_BENCH_SEVERAL_INSERTS (50).
import os from 'node:os';
import { freshDatabase } from './_support.mjs';
import { databaseServer, writeResultsSection } from './graphql/support.mjs';
import { runSeveralEngines } from '../test/support/several-engines.mjs';

const SECONDS = Number(process.env.SERVICE_BENCH_SEVERAL_SECONDS ?? 90);
const SUBSCRIBERS = Number(process.env.SERVICE_BENCH_SEVERAL_SUBSCRIBERS ?? 200);
const INSERTS_PER_SECOND = Number(process.env.SERVICE_BENCH_SEVERAL_INSERTS ?? 50);
const METADATA_EVERY = 10;

const server = await databaseServer();
const db = await freshDatabase(server.url);
let failed = false;
try {
  const r = await runSeveralEngines({
    databaseUrl: db.url,
    durationMs: SECONDS * 1000,
    subscribers: SUBSCRIBERS,
    insertsPerSecond: INSERTS_PER_SECOND,
    metadataEveryMs: METADATA_EVERY * 1000,
    settleMs: 30_000,
  });
  const served = r.servedByOtherMs.map((ms) => Math.round(ms));
  const lines = [
    `- ${SECONDS} s of load: ${r.acknowledgedWrites} inserts acknowledged (${r.rowsWritten} rows stored), ${SUBSCRIBERS} subscribers, ${r.tablesMade} tables made and tracked`,
    `- restarts (signal, restart to healthy): ${r.restarts.map((x) => `${x.engine} ${x.signal} ${x.restartToHealthyMs} ms`).join(', ')}`,
    `- a table made and tracked through one engine, served by the other after: ${served.join(', ')} ms (${r.tablesMade - served.length} made while the other was down)`,
    `- events: ${r.lostEvents.length} lost, ${r.duplicateDeliveries} delivered twice; insert sent to delivery p50 ${r.deliveryMs.p50} ms, p99 ${r.deliveryMs.p99} ms, max ${r.deliveryMs.max} ms`,
    `- acknowledged writes lost: ${r.lostWrites.length}; subscribers left stale: ${r.staleSubscribers.length}; 5xx from an engine that was up: ${r.fiveHundreds.length}`,
    `- both engines on one metadata version serving every table: ${r.convergence.converged ? `yes, ${r.convergence.ms} ms after the load` : 'NO'}`,
  ];
  for (const line of lines) console.log(line);
  failed = r.lostWrites.length + r.lostEvents.length + r.staleSubscribers.length + r.fiveHundreds.length > 0 || !r.convergence.converged;
  if (r.fiveHundreds.length) console.log(JSON.stringify(r.fiveHundreds.slice(0, 5)));
  const date = new Date().toISOString().slice(0, 10);
  writeResultsSection(
    '## several engines (`bench/several-engines.mjs`)',
    `## several engines (\`bench/several-engines.mjs\`)

Two engines on one PostgreSQL database (metadata and source), each stopped in turn by kill -9 or
SIGTERM and started again, under mixed load. ${date}, ${os.cpus().length} × ${os.cpus()[0]?.model.split(' ').slice(0, 2).join(' ') ?? 'cpu'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, the database and both engines on the same machine:

${lines.join('\n')}
`,
  );
} finally {
  await db.drop();
  await server.stop();
}
process.exit(failed ? 1 : 0);
