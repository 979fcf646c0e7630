// Compiling a nested query must be linear in its depth. A chain of tables
// (each with an array relationship `children` to the next) is queried 6 and 12 levels deep;
// every request has a new alias so it misses the plan cache and is compiled anew. Prints the
// round trip p50/p95 per depth, as admin and as a role whose filters follow relationships.
import os from 'node:os';
import { benchServer, freshDatabase, percentiles, startEngine, timed } from './_support.mjs';

const TABLES = 13;
const ROUNDS = 30;
const DEPTHS = [6, 12];

const server = await benchServer();
const db = await freshDatabase(server.url);
let engine;
try {
  await db.sql(
    Array.from({ length: TABLES }, (_, i) =>
      `CREATE TABLE t${i} (id serial PRIMARY KEY, owner_id integer, title text${i > 0 ? `, parent_id integer REFERENCES t${i - 1}(id)` : ''});`,
    ).join('\n'),
  );
  engine = await startEngine({ SERVICE_GRAPHQL_DATABASE_URL: db.url });
  const own = { owner_id: { _eq: 'X-Service-User-Id' } };
  const current = await engine.post('/v1/metadata', { type: 'export_metadata', args: {} });
  current.sources[0].tables = Array.from({ length: TABLES }, (_, i) => {
    const t = { table: { schema: 'public', name: `t${i}` } };
    if (i > 0) t.object_relationships = [{ name: 'parent', using: { foreign_key_constraint_on: 'parent_id' } }];
    if (i < TABLES - 1) t.array_relationships = [{ name: 'children', using: { foreign_key_constraint_on: { table: { schema: 'public', name: `t${i + 1}` }, column: 'parent_id' } } }];
    t.select_permissions = [{ role: 'user', permission: { columns: '*', filter: i > 0 ? { _or: [own, { parent: own }] } : own, limit: 100 } }];
    return t;
  });
  await engine.post('/v1/metadata', { type: 'replace_metadata', args: current });

  const nested = (depth) => {
    let body = 'id title';
    for (let d = 0; d < depth; d++) body = `id title children(order_by: {id: asc}, limit: 5) { ${body} }`;
    return body;
  };
  let counter = 0;
  const request = (depth, headers) => async () => {
    const res = await fetch(`${engine.url}/v1/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ query: `{ q${counter++}: t0(limit: 5) { ${nested(depth)} } }` }),
    });
    const json = await res.json();
    if (json.errors) throw new Error(JSON.stringify(json.errors));
  };

  console.log(`${TABLES} tables in a chain; ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}; node ${process.version}`);
  const roles = { admin: {}, user: { 'x-service-role': 'user', 'x-service-user-id': '1' } };
  for (const [role, headers] of Object.entries(roles)) {
    for (const depth of DEPTHS) {
      await request(depth, headers)(); // the role's schema
      const samples = [];
      for (let i = 0; i < ROUNDS; i++) samples.push(await timed(request(depth, headers)));
      const s = percentiles(samples);
      console.log(`${`compile miss, ${depth} levels, ${role}`.padEnd(36)} p50 ${s.p50.toFixed(1).padStart(7)} ms   p95 ${s.p95.toFixed(1).padStart(7)} ms   (n=${s.n})`);
    }
  }
} finally {
  await engine?.stop();
  await db.drop();
  await server.stop();
}
