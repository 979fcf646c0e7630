// Bulks of table commands at 400 tables, each with 24 roles of their own select permissions
// (9,600 permissions): how long one command of a bulk takes, per kind of command. A bulk checks
// the document after each command, so what a command makes the resolution look at again is what
// a migration of many commands pays for each.
import os from 'node:os';
import { benchServer, freshDatabase, startEngine, timed } from './_support.mjs';

const TABLES = 400;
const COMMANDS = 100;
const ROLES = Array.from({ length: 24 }, (_, r) => `role${String(r).padStart(2, '0')}`);
const name = (i) => `big${String(i).padStart(3, '0')}`;

const server = await benchServer();
const db = await freshDatabase(server.url);
let engine;
try {
  await db.sql(Array.from({ length: TABLES }, (_, i) => `CREATE TABLE ${name(i)} (id int PRIMARY KEY, title text);`).join('\n'));
  engine = await startEngine({ SERVICE_GRAPHQL_DATABASE_URL: db.url });
  const entry = (i) => ({
    table: { schema: 'public', name: name(i) },
    select_permissions: ROLES.map((role) => ({ role, permission: { columns: ['id', 'title'], filter: { _or: [{ id: { _eq: 'X-Service-User-Id' } }, { title: { _like: `%${role}%` } }] } } })),
  });
  const current = await engine.post('/v1/metadata', { type: 'export_metadata', args: {} });
  const replace = async (count) => {
    current.sources[0].tables = Array.from({ length: count }, (_, i) => entry(i));
    await engine.post('/v1/metadata', { type: 'replace_metadata', args: current });
  };
  const bulk = (args) => timed(() => engine.post('/v1/metadata', { type: 'bulk', args }));
  const first = Array.from({ length: COMMANDS }, (_, i) => name(i));
  const results = [];
  await replace(TABLES);
  results.push(['pg_set_table_customization', await bulk(first.map((table, i) => ({ type: 'pg_set_table_customization', args: { table, configuration: { comment: `c${i}` } } })))]);
  results.push(['pg_create_select_permission', await bulk(first.map((table) => ({ type: 'pg_create_select_permission', args: { table, role: 'extra', permission: { columns: ['id'], filter: {} } } })))]);
  results.push([
    'pg_create_object_relationship',
    await bulk(first.map((table) => ({ type: 'pg_create_object_relationship', args: { table, name: 'self', using: { manual_configuration: { remote_table: table, column_mapping: { id: 'id' } } } } }))),
  ]);
  await replace(TABLES - COMMANDS);
  results.push(['pg_track_table', await bulk(Array.from({ length: COMMANDS }, (_, i) => ({ type: 'pg_track_table', args: { table: name(TABLES - COMMANDS + i) } })))]);

  console.log(`${TABLES} tables × ${ROLES.length} roles of their own (${(TABLES * ROLES.length).toLocaleString('en')} permissions); bulks of ${COMMANDS}; ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}; node ${process.version}`);
  for (const [command, ms] of results) console.log(`${`bulk of ${command}`.padEnd(44)} ${ms.toFixed(0).padStart(7)} ms   ${(ms / COMMANDS).toFixed(1).padStart(6)} ms a command`);
} finally {
  await engine?.stop();
  await db.drop();
  await server.stop();
}
