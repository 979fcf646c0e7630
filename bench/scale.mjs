// The scale: 5,000 tables × 11 roles. Each table has an object and an array
// relationship and select/insert/update/delete permissions for every role (a ~36 MiB document).
// Measures replace_metadata of the whole document, the first query sent right after it, a
// permission change round trip, the first query of each other role (its schema built), an
// unchanged query after an unrelated permission change,
// a new query (plan-cache miss) after a change,
// boot to ready and the engine's RSS (right after the queries, and once idle threads collected their garbage). SERVICE_BENCH_SCALE_TABLES / _ROLES shrink it;
// SERVICE_BENCH_SCALE_DISTINCT_ROLES=1 gives each role permissions of its own (by default the roles' are the same word for word).
// The two shapes measured against the goals (bench/RESULTS.md records both):
//   node bench/scale.mjs                        5,000 tables × 11 roles with the same permissions
//   SERVICE_BENCH_SCALE_TABLES=500 SERVICE_BENCH_SCALE_ROLES=100 SERVICE_BENCH_SCALE_DISTINCT_ROLES=1 node bench/scale.mjs
//                                               500 tables × 100 roles, each with permissions of its own
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { benchServer, freshDatabase, percentiles, startEngine, timed } from './_support.mjs';

const TABLES = Number(process.env.SERVICE_BENCH_SCALE_TABLES ?? 5000);
const ROLES = Number(process.env.SERVICE_BENCH_SCALE_ROLES ?? 11);
const ROUNDS = Number(process.env.SERVICE_BENCH_SCALE_ROUNDS ?? 10);
// Each role's permissions different from every other's (a row limit of its own): nothing is shared between roles but the schema.
const DISTINCT_ROLES = process.env.SERVICE_BENCH_SCALE_DISTINCT_ROLES === '1';

const rssMiB = (pid) => {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'));
  return Number(line.split(/\s+/)[1]) / 1024;
};

const server = await benchServer();
const db = await freshDatabase(server.url);
let engine;
const engineEnv = { SERVICE_GRAPHQL_DATABASE_URL: db.url };
try {
  // A chain: every table points at the one before it. Created in batches (one statement is too big for the parser's comfort).
  for (let from = 0; from < TABLES; from += 500) {
    const ddl = [];
    for (let i = from; i < Math.min(TABLES, from + 500); i++) {
      ddl.push(`CREATE TABLE t${i} (id serial PRIMARY KEY, owner_id integer, title text, body text, published boolean${i > 0 ? `, parent_id integer REFERENCES t${i - 1}(id)` : ''});`);
    }
    await db.sql(ddl.join('\n'));
  }
  await db.sql('INSERT INTO t0 (owner_id, title, body, published) SELECT g % 10, md5(g::text), md5(g::text), g % 2 = 0 FROM generate_series(1, 100) g');
  engine = await startEngine(engineEnv);

  const roles = Array.from({ length: ROLES }, (_, r) => `role${r}`);
  const own = { owner_id: { _eq: 'X-Service-User-Id' } };
  const tables = Array.from({ length: TABLES }, (_, i) => {
    const t = { table: { schema: 'public', name: `t${i}` } };
    if (i > 0) t.object_relationships = [{ name: 'parent', using: { foreign_key_constraint_on: 'parent_id' } }];
    if (i < TABLES - 1) t.array_relationships = [{ name: 'children', using: { foreign_key_constraint_on: { table: { schema: 'public', name: `t${i + 1}` }, column: 'parent_id' } } }];
    const filter = i > 0 ? { _or: [own, { published: { _eq: true } }, { parent: own }] } : { _or: [own, { published: { _eq: true } }] };
    const mine = (r) => (DISTINCT_ROLES ? { id: { _neq: r } } : {});
    t.insert_permissions = roles.map((role, r) => ({ role, permission: { check: { ...own, ...mine(r) }, columns: ['title', 'body', 'published'], set: { owner_id: 'X-Service-User-Id' } } }));
    t.select_permissions = roles.map((role, r) => ({ role, permission: { columns: '*', filter, limit: DISTINCT_ROLES ? 100 + r : 100, allow_aggregations: true } }));
    t.update_permissions = roles.map((role, r) => ({ role, permission: { columns: ['title', 'body', 'published'], filter, check: { ...own, ...mine(r) } } }));
    t.delete_permissions = roles.map((role, r) => ({ role, permission: { filter: { ...own, ...mine(r) } } }));
    return t;
  });
  const current = await engine.post('/v1/metadata', { type: 'export_metadata', args: {} });
  current.sources[0].tables = tables;
  // Serialised before the clock starts: the client's JSON.stringify of 40 MiB (0.4 s) is not the engine's.
  const replaceBody = JSON.stringify({ type: 'replace_metadata', args: current });
  const documentMiB = Buffer.byteLength(replaceBody) / 2 ** 20;
  const replaceMs = await timed(() => engine.post('/v1/metadata', replaceBody));

  const query = async (role, text) => {
    const res = await fetch(`${engine.url}/v1/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-service-role': role, 'x-service-user-id': '1' },
      body: JSON.stringify({ query: text }),
    });
    const json = await res.json();
    if (json.errors) throw new Error(JSON.stringify(json.errors));
  };
  const q = '{ t0(limit: 5) { id title children { id parent { id } } } }';
  // Sent as soon as replace_metadata answered: the schema builder is still taking in the whole
  // new document (parse, resolution) before it builds the role's schema.
  const afterReplaceMs = await timed(() => query(roles[0], q));
  const firstQueryMs = [];
  for (const role of roles.slice(1)) firstQueryMs.push(await timed(() => query(role, q)));
  const rssAllRoles = rssMiB(engine.pid);
  // Threads collect their garbage once idle for a second (util/collect-garbage.ts), and V8 hands
  // the freed pages back in the background: RSS as it settles, every 5 s for 30 s.
  const rssSettling = [];
  for (let s = 5; s <= 30; s += 5) {
    await new Promise((r) => setTimeout(r, 5000));
    rssSettling.push(rssMiB(engine.pid));
  }

  const permission = { columns: ['id', 'title'], filter: { _and: [{ parent: { title: { _ilike: '%x%' } } }, own] } };
  const createMs = [];
  const dropMs = [];
  const afterChangeMs = [];
  const newQueryAfterChangeMs = [];
  for (let i = 0; i < ROUNDS; i++) {
    // Tables far down the chain: the query below reads t0 to t2 only.
    const table = `t${3 + ((i * 37) % (TABLES - 3))}`;
    createMs.push(await timed(() => engine.post('/v1/metadata', { type: 'pg_create_select_permission', args: { table, role: 'bench', permission } })));
    // The same query as before, on a table the change did not touch.
    afterChangeMs.push(await timed(() => query('role0', q)));
    // A query not compiled before (a plan-cache miss) on the new metadata: the role's schema is rebuilt for it.
    newQueryAfterChangeMs.push(await timed(() => query('role0', `{ t1(limit: 1, where: { id: { _gt: ${i} } }) { id parent { title } } }`)));
    dropMs.push(await timed(() => engine.post('/v1/metadata', { type: 'pg_drop_select_permission', args: { table, role: 'bench' } })));
  }
  await engine.stop();
  engine = await startEngine(engineEnv);
  const bootMs = engine.bootMs;

  const fmt = (name, s) => `${name.padEnd(44)} p50 ${s.p50.toFixed(1).padStart(8)} ms   p95 ${s.p95.toFixed(1).padStart(8)} ms   (n=${s.n})`;
  console.log(`${TABLES} tables × ${ROLES} roles${DISTINCT_ROLES ? ' (each with permissions of its own)' : ''} (${(TABLES * ROLES * 4).toLocaleString('en')} permissions, ${documentMiB.toFixed(1)} MiB); ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}; node ${process.version}`);
  console.log(`${'replace_metadata with all of it'.padEnd(44)} ${replaceMs.toFixed(0).padStart(12)} ms`);
  console.log(fmt('pg_create_select_permission round trip', percentiles(createMs)));
  console.log(fmt('pg_drop_select_permission round trip', percentiles(dropMs)));
  console.log(`${'first query right after replace_metadata'.padEnd(44)} ${afterReplaceMs.toFixed(0).padStart(12)} ms`);
  // With one role (SERVICE_BENCH_SCALE_ROLES=1) there is no other role to measure.
  if (firstQueryMs.length > 0) console.log(fmt("first query of a role (its schema built)", percentiles(firstQueryMs)));
  console.log(fmt('same query after an unrelated change', percentiles(afterChangeMs)));
  console.log(fmt('a new query after a change', percentiles(newQueryAfterChangeMs)));
  console.log(`${'boot to ready'.padEnd(44)} ${bootMs.toFixed(0).padStart(12)} ms`);
  console.log(`${'engine RSS with every role queried'.padEnd(44)} ${rssAllRoles.toFixed(0).padStart(12)} MiB`);
  console.log(`${'  then every 5 s while idle'.padEnd(44)} ${rssSettling.map((m) => m.toFixed(0)).join(' / ')} MiB`);
} finally {
  await engine?.stop();
  await db.drop();
  await server.stop();
}
