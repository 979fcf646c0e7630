import { benchServer, freshDatabase, percentiles, startEngine, timed } from './_support.mjs';
const TABLES = 5000, ROLES = 11;
function fullTables() {
  const roles = Array.from({ length: ROLES }, (_, r) => `role${r}`);
  const own = { owner_id: { _eq: 'X-Service-User-Id' } };
  const tables = Array.from({ length: TABLES }, (_, i) => {
    const t = { table: { schema: 'public', name: `t${i}` } };
    if (i > 0) t.object_relationships = [{ name: 'parent', using: { foreign_key_constraint_on: 'parent_id' } }];
    if (i < TABLES - 1) t.array_relationships = [{ name: 'children', using: { foreign_key_constraint_on: { table: { schema: 'public', name: `t${i + 1}` }, column: 'parent_id' } } }];
    const filter = i > 0 ? { _or: [own, { published: { _eq: true } }, { parent: own }] } : { _or: [own, { published: { _eq: true } }] };
    t.insert_permissions = roles.map((role) => ({ role, permission: { check: own, columns: ['title', 'body', 'published'], set: { owner_id: 'X-Service-User-Id' } } }));
    t.select_permissions = roles.map((role) => ({ role, permission: { columns: '*', filter, limit: 100, allow_aggregations: true } }));
    t.update_permissions = roles.map((role) => ({ role, permission: { columns: ['title', 'body', 'published'], filter, check: own } }));
    t.delete_permissions = roles.map((role) => ({ role, permission: { filter: own } }));
    return t;
  });
  return tables;
}
const server = await benchServer();
let url = process.env.KEEP_DB;
if (!url) {
  const db = await freshDatabase(server.url);
  url = db.url;
  for (let from = 0; from < TABLES; from += 500) {
    const ddl = [];
    for (let i = from; i < Math.min(TABLES, from + 500); i++) ddl.push(`CREATE TABLE t${i} (id serial PRIMARY KEY, owner_id integer, title text, body text, published boolean${i > 0 ? `, parent_id integer REFERENCES t${i - 1}(id)` : ''});`);
    await db.sql(ddl.join('\n'));
  }
  const engine = await startEngine({ SERVICE_GRAPHQL_DATABASE_URL: url });
  const current = await engine.post('/v1/metadata', { type: 'export_metadata', args: {} });
  current.sources[0].tables = fullTables();
  console.log('replace', await timed(() => engine.post('/v1/metadata', { type: 'replace_metadata', args: current })));
  await new Promise((r) => setTimeout(r, 3000));
  await engine.stop();
  console.log('KEEP_DB=' + url);
}
const engine = await startEngine({ SERVICE_GRAPHQL_DATABASE_URL: url });
console.log('boot', engine.bootMs);
if (process.env.REPLACE) {
  const empty = await engine.post('/v1/metadata', { type: 'export_metadata', args: {} });
  empty.sources[0].tables = [];
  const full = structuredClone(empty); full.sources[0].tables = fullTables();
  for (let i = 0; i < Number(process.env.REPLACE); i++) {
    await engine.post('/v1/metadata', { type: 'replace_metadata', args: empty });
    await new Promise((r) => setTimeout(r, 2000));
    console.log('replace', (await timed(() => engine.post('/v1/metadata', { type: 'replace_metadata', args: full }))).toFixed(0));
    await new Promise((r) => setTimeout(r, 3000));
  }
}
await new Promise((r) => setTimeout(r, 2000));
const own = { owner_id: { _eq: 'X-Service-User-Id' } };
const permission = { columns: ['id', 'title'], filter: { _and: [{ parent: { title: { _ilike: '%x%' } } }, own] } };
const createMs = [], dropMs = [];
for (let i = 0; i < Number(process.env.ROUNDS ?? 30); i++) {
  const table = `t${3 + ((i * 37) % (TABLES - 3))}`;
  createMs.push(await timed(() => engine.post('/v1/metadata', { type: 'pg_create_select_permission', args: { table, role: 'bench', permission } })));
  dropMs.push(await timed(() => engine.post('/v1/metadata', { type: 'pg_drop_select_permission', args: { table, role: 'bench' } })));
}
console.log('create', percentiles(createMs), 'drop', percentiles(dropMs));
await engine.stop();
