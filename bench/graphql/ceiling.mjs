// The raw ceiling: a minimal uWebSockets.js server that maps each workload request (by its
// query text and role) to the workload's prepared SQL, runs it through a node-postgres pool
// and writes PostgreSQL's JSON text out without parsing it. No GraphQL at all. A mutation is
// its one statement, so it needs no explicit transaction.
// Environment: BENCH_DATABASE_URL, BENCH_POOL_SIZE, BENCH_PORT.
import pg from 'pg';
import * as uws from 'uWebSockets.js';
import { MUTATIONS, WORKLOADS } from './workloads.mjs';

const JSON_OID = 114;
const rawJson = { getTypeParser: (oid, format) => (oid === JSON_OID ? (v) => v : pg.types.getTypeParser(oid, format)) };
const pool = new pg.Pool({ connectionString: process.env.BENCH_DATABASE_URL, max: Number(process.env.BENCH_POOL_SIZE) });

const routeKey = (query, role) => `${role}\n${query}`;
const routes = new Map([...WORKLOADS, ...MUTATIONS].map((w) => [routeKey(w.service, w.headers?.(0)['x-service-role'] ?? ''), w]));

function readBody(res) {
  return new Promise((resolve) => {
    const chunks = [];
    res.onData((chunk, last) => {
      // uWS reuses the chunk's memory after this callback: copy it.
      chunks.push(Buffer.from(chunk.slice(0)));
      if (last) resolve(Buffer.concat(chunks));
    });
  });
}

/** The request's `x-service-*` headers: its role and session variables. */
function sessionOf(req) {
  const session = {};
  req.forEach((name, value) => {
    if (name.startsWith('x-service-')) session[name] = value;
  });
  return session;
}

async function answer(body, session) {
  const { query, variables } = JSON.parse(body);
  const w = routes.get(routeKey(query, session['x-service-role'] ?? ''));
  if (!w) throw new Error('not a workload query');
  const { field, sql, params } = w.ceiling;
  const r = await pool.query({ name: w.name, text: sql, values: params(variables ?? {}, session), rowMode: 'array', types: rawJson });
  return `{"data":{"${field}":${r.rows[0]?.[0] ?? 'null'}}}`;
}

const app = uws.App();
app.post('/graphql', (res, req) => {
  // Headers must be read before the first await: the request object dies with this callback.
  const session = sessionOf(req);
  let aborted = false;
  res.onAborted(() => (aborted = true));
  const reply = (status, text) => !aborted && res.cork(() => res.writeStatus(status).writeHeader('content-type', 'application/json').end(text));
  readBody(res)
    .then((body) => answer(body, session))
    .then(
      (text) => reply('200 OK', text),
      (e) => reply('500 Internal Server Error', JSON.stringify({ errors: [{ message: String(e?.message ?? e) }] })),
    );
});
app.listen('127.0.0.1', Number(process.env.BENCH_PORT), (socket) => {
  if (!socket) throw new Error(`cannot listen on port ${process.env.BENCH_PORT}`);
});

// An orderly exit, so that `BENCH_NODE_ARGS=--cpu-prof` writes the ceiling's profile too.
process.once('SIGTERM', () => process.exit(0));
