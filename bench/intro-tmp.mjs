import pg from 'pg';
import { readFileSync } from 'node:fs';
const src = readFileSync('/work/main/src/backends/pg/introspect.ts', 'utf8');
const sql = src.split('const INTROSPECTION_SQL = /* sql */ `')[1].split('`;')[0].replace(/\\\\/g, '\\');
const c = new pg.Client({ connectionString: process.argv[2] }); await c.connect();
await c.query('SET jit = off');
const r = await c.query('EXPLAIN (ANALYZE, BUFFERS off) ' + sql);
console.log(r.rows.map((x) => x['QUERY PLAN']).join('\n'));
await c.end();
