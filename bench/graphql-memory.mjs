// The memory goal: 500 tracked tables × 10 roles (3 of them inherited), with the GraphQL
// schemas of every role built: the engine's RSS under 400 MiB. Prints the RSS and writes it
// into bench/RESULTS.md ("GraphQL schema memory").
//
// Environment: SERVICE_BENCH_DATABASE_URL, else SERVICE_TEST_DATABASE_URL, else an embedded PostgreSQL.
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { freshDatabase } from './_support.mjs';
import { databaseServer, writeResultsSection } from './graphql/support.mjs';
import { startEngineProcess } from './graphql/targets.mjs';

const TABLES = 500;
/** Ten columns per table: id, parent_id and these. */
const COLUMNS = ['c0', 'c1', 'c2', 'c3', 'c4', 'c5', 'n', 'at'];
const ROLES = ['r0', 'r1', 'r2', 'r3', 'r4', 'r5', 'r6'];
const INHERITED = [
  { role_name: 'i0', role_set: ['r0', 'r1'] },
  { role_name: 'i1', role_set: ['r2', 'r3', 'r4'] },
  { role_name: 'i2', role_set: ['r5', 'r6'] },
];
const GOAL_MIB = 400;
const SETTLE_MS = 5000;

/** A chain: each table has a foreign key to the one before. */
function ddl() {
  const columns = 'c0 text, c1 text, c2 text, c3 text, c4 text, c5 text, n int, at timestamptz';
  return Array.from({ length: TABLES }, (_, i) =>
    i === 0 ? `CREATE TABLE t0 (id int PRIMARY KEY, parent_id int, ${columns});` : `CREATE TABLE t${i} (id int PRIMARY KEY, parent_id int REFERENCES t${i - 1} (id), ${columns});`,
  ).join('\n');
}

/**
 * Role r<j> sees id, parent_id and the first j+1 other columns, so the inherited roles mix
 * column sets (the null-unless-a-parent-allows rule); half the filters read a session
 * variable, the others go through the `parent` relationship.
 */
function selectPermission(i, j) {
  const filter = j % 2 === 0 || i === 0 ? { id: { _gte: 'X-Service-Min-Id' } } : { parent: { id: { _gt: 0 } } };
  return { role: ROLES[j], permission: { columns: ['id', 'parent_id', ...COLUMNS.slice(0, j + 1)], filter, allow_aggregations: j % 2 === 0 } };
}

function trackedTable(i) {
  const table = (k) => ({ schema: 'public', name: `t${k}` });
  const entry = { table: table(i), select_permissions: ROLES.map((_, j) => selectPermission(i, j)) };
  if (i > 0) entry.object_relationships = [{ name: 'parent', using: { foreign_key_constraint_on: 'parent_id' } }];
  if (i < TABLES - 1) entry.array_relationships = [{ name: 'children', using: { foreign_key_constraint_on: { table: table(i + 1), column: 'parent_id' } } }];
  return entry;
}

/** Resident and peak resident memory of a process, in MiB. */
function memoryMiB(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)[1]);
  return { rss: kib('VmRSS') / 1024, peak: kib('VmHWM') / 1024 };
}

/** A first query as the role: the compiler thread builds the role's whole schema for it. */
async function buildSchema(engine, role) {
  const headers = { 'content-type': 'application/json', 'x-service-role': role, 'x-service-min-id': '0' };
  const res = await fetch(`${engine.url}/v1/graphql`, { method: 'POST', headers, body: JSON.stringify({ query: '{ t1(limit: 1) { id parent { id } } }' }) });
  const body = await res.json();
  if (!body.data) throw new Error(`query as ${role}: ${JSON.stringify(body).slice(0, 500)}`);
}

/** RSS once the engine has been idle a moment (garbage of the builds collected). */
async function settledMemory(engine) {
  await new Promise((r) => setTimeout(r, SETTLE_MS));
  return memoryMiB(engine.pid);
}

const server = await databaseServer();
const db = await freshDatabase(server.url);
let engine;
try {
  await db.sql(ddl());
  engine = await startEngineProcess(db.url);
  const { metadata } = await engine.metadata({ type: 'export_metadata', version: 2, args: {} });
  metadata.sources.find((s) => s.name === 'default').tables = Array.from({ length: TABLES }, (_, i) => trackedTable(i));
  metadata.inherited_roles = INHERITED;
  await engine.metadata({ type: 'replace_metadata', version: 2, args: { metadata } });
  const loaded = await settledMemory(engine);
  const roles = [...ROLES, ...INHERITED.map((r) => r.role_name)];
  for (const role of roles) await buildSchema(engine, role);
  const built = await settledMemory(engine);
  await buildSchema(engine, 'admin');
  const withAdmin = await settledMemory(engine);

  const line =
    `${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, Node ${process.version}: ` +
    `${TABLES} tables, ${TABLES * ROLES.length} select permissions. Engine RSS ${loaded.rss.toFixed(0)} MiB with the metadata loaded; ` +
    `${built.rss.toFixed(0)} MiB with the schemas of the ${roles.length} roles built (goal under ${GOAL_MIB} MiB); ` +
    `${withAdmin.rss.toFixed(0)} MiB with admin's too (peak ${withAdmin.peak.toFixed(0)} MiB).`;
  console.log(line);
  writeResultsSection(
    '## GraphQL schema memory',
    [
      '## GraphQL schema memory (`bench/graphql-memory.mjs`)',
      '',
      `The memory goal: ${TABLES} tracked tables of 10 columns in a foreign-key chain (an object and an`,
      `array relationship each), select permissions for ${ROLES.length} roles on every table (different columns,`,
      'filters on a session variable or through a relationship), 3 inherited roles over them; the schema of',
      'every role built by a first query as that role, then admin\'s; RSS of the engine process (all its',
      `threads; one compiler thread on this machine) ${SETTLE_MS / 1000} s after the last build.`,
      '',
      line,
    ].join('\n'),
  );
} finally {
  await engine?.stop();
  await db.drop();
  await server.stop();
}
