// The goal: with 500 tracked tables, 1,000 relationships and 2,000 permissions, a
// single permission change round trip stays under 50 ms p50. Prints one line per measurement.
import os from 'node:os';
import { benchServer, freshDatabase, percentiles, startEngine, timed } from './_support.mjs';

const TABLES = 500;
const ROUNDS = 50;

const server = await benchServer();
const db = await freshDatabase(server.url);
let engine;
try {
  // A chain: every table points at the one before it, so each has an object and an array relationship.
  const ddl = Array.from({ length: TABLES }, (_, i) =>
    i === 0
      ? 'CREATE TABLE t0 (id serial PRIMARY KEY, owner_id integer, title text, body text);'
      : `CREATE TABLE t${i} (id serial PRIMARY KEY, owner_id integer, title text, body text, parent_id integer REFERENCES t${i - 1}(id));`,
  ).join('\n');
  await db.sql(ddl);
  engine = await startEngine({ SERVICE_GRAPHQL_DATABASE_URL: db.url });

  const own = { owner_id: { _eq: 'X-Service-User-Id' } };
  const tables = Array.from({ length: TABLES }, (_, i) => {
    const t = { table: { schema: 'public', name: `t${i}` } };
    if (i > 0) t.object_relationships = [{ name: 'parent', using: { foreign_key_constraint_on: 'parent_id' } }];
    if (i < TABLES - 1) t.array_relationships = [{ name: 'children', using: { foreign_key_constraint_on: { table: { schema: 'public', name: `t${i + 1}` }, column: 'parent_id' } } }];
    const filter = i > 0 ? { _or: [own, { parent: own }] } : own;
    t.insert_permissions = [{ role: 'user', permission: { check: own, columns: ['title', 'body'] } }];
    t.select_permissions = [{ role: 'user', permission: { columns: '*', filter, limit: 100 } }];
    t.update_permissions = [{ role: 'user', permission: { columns: ['title', 'body'], filter } }];
    t.delete_permissions = [{ role: 'user', permission: { filter } }];
    return t;
  });
  const current = await engine.post('/v1/metadata', { type: 'export_metadata', args: {} });
  current.sources[0].tables = tables;
  const replaceMs = await timed(() => engine.post('/v1/metadata', { type: 'replace_metadata', args: current }));

  const permission = { columns: ['id', 'title'], filter: { _and: [{ parent: { title: { _ilike: '%x%' } } }, { owner_id: { _eq: 'X-Service-User-Id' } }] } };
  const createMs = [];
  const dropMs = [];
  for (let i = 0; i < ROUNDS; i++) {
    const table = `t${1 + (i % (TABLES - 1))}`;
    createMs.push(await timed(() => engine.post('/v1/metadata', { type: 'pg_create_select_permission', args: { table, role: 'bench', permission } })));
    dropMs.push(await timed(() => engine.post('/v1/metadata', { type: 'pg_drop_select_permission', args: { table, role: 'bench' } })));
  }

  const relationships = tables.reduce((n, t) => n + (t.object_relationships?.length ?? 0) + (t.array_relationships?.length ?? 0), 0);
  const fmt = (name, s) => `${name.padEnd(36)} p50 ${s.p50.toFixed(1).padStart(7)} ms   p95 ${s.p95.toFixed(1).padStart(7)} ms   (n=${s.n})`;
  console.log(`${TABLES} tables, ${relationships} relationships, ${TABLES * 4} permissions; ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}; node ${process.version}`);
  console.log(`${'replace_metadata with all of it'.padEnd(36)} ${replaceMs.toFixed(0).padStart(11)} ms`);
  console.log(fmt('pg_create_select_permission round trip', percentiles(createMs)));
  console.log(fmt('pg_drop_select_permission round trip', percentiles(dropMs)));
} finally {
  await engine?.stop();
  await db.drop();
  await server.stop();
}
