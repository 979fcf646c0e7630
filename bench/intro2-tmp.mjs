import pg from 'pg';
import { introspectPg } from '../dist/backends/pg/introspect.js';
const c = new pg.Client({ connectionString: process.argv[2] }); await c.connect();
for (const jit of ['on','off']) { await c.query(`SET jit = ${jit}`);
for (let i = 0; i < 3; i++) { const t = performance.now(); const r = await introspectPg(c); console.log(jit, 'introspect', (performance.now() - t).toFixed(0), 'ms', r.tables.length); } }
await c.end();
