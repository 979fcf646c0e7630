// Remote joins (the goal: "a query joining 100 rows to a remote schema makes exactly one
// remote request and answers within 1.5× the time of the same data fetched by a client in two
// round trips"). A graphql-js server over node:http in the bench process serves
// `messages(author)`; 100 authors in the database have a remote relationship `posts` to it.
// Measured one request at a time (latency, not throughput): the engine's joined query, and a
// client doing it itself: the authors from the engine, then one batched query (an alias per
// author) to the remote server. Counts the remote requests per joined query. Writes
// bench/RESULTS.md ("## remote joins").
//
// Environment: SERVICE_BENCH_DATABASE_URL, else an embedded PostgreSQL;
// SERVICE_BENCH_REMOTE_JOINS_REQUESTS (300).
import { createServer } from 'node:http';
import os from 'node:os';
import { buildSchema, graphql } from 'graphql';
import { freshDatabase, percentiles, startEngine } from './_support.mjs';
import { databaseServer, writeResultsSection } from './graphql/support.mjs';

const REQUESTS = Number(process.env.SERVICE_BENCH_REMOTE_JOINS_REQUESTS ?? 300);
const AUTHORS = 100;

const schema = buildSchema('type Message { id: Int!  author: Int!  body: String! }  type Query { messages(author: Int!): [Message!]! }');
const root = { messages: ({ author }) => [0, 1, 2].map((i) => ({ id: author * 10 + i, author, body: `message ${i} of ${author}` })) };
let remoteRequests = 0;
const remote = createServer((req, res) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', async () => {
    remoteRequests++;
    const { query, variables } = JSON.parse(body);
    const result = await graphql({ schema, source: query, rootValue: root, variableValues: variables });
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(result));
  });
});

const post = async (url, body) => {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const json = await res.json();
  if (!json.data) throw new Error(`unexpected answer: ${JSON.stringify(json).slice(0, 300)}`);
  return json.data;
};

const timedRuns = async (count, fn) => {
  const samples = [];
  for (let i = 0; i < count; i++) {
    const t = performance.now();
    await fn();
    samples.push(performance.now() - t);
  }
  return percentiles(samples);
};

const server = await databaseServer();
const db = await freshDatabase(server.url);
let engine;
try {
  await new Promise((r) => remote.listen(0, '127.0.0.1', r));
  const remoteUrl = `http://127.0.0.1:${remote.address().port}/graphql`;
  await db.sql(`CREATE TABLE author (id int PRIMARY KEY, name text NOT NULL); INSERT INTO author SELECT g, 'author ' || g FROM generate_series(1, ${AUTHORS}) g;`);
  engine = await startEngine({ SERVICE_GRAPHQL_DATABASE_URL: db.url });
  await engine.post('/v1/metadata', { type: 'pg_track_table', args: { table: 'author' } });
  await engine.post('/v1/metadata', { type: 'add_remote_schema', args: { name: 'msgs', definition: { url: remoteUrl } } });
  await engine.post('/v1/metadata', {
    type: 'pg_create_remote_relationship',
    args: { name: 'posts', table: 'author', definition: { to_remote_schema: { remote_schema: 'msgs', lhs_fields: ['id'], remote_field: { messages: { arguments: { author: '$id' } } } } } },
  });
  const graphqlUrl = `${engine.url}/v1/graphql`;
  const joined = () => post(graphqlUrl, { query: '{ author(order_by: {id: asc}) { id name posts { id body } } }' });
  const twoTrips = async () => {
    const { author } = await post(graphqlUrl, { query: '{ author(order_by: {id: asc}) { id name } }' });
    const query = `{ ${author.map((a) => `a${a.id}: messages(author: ${a.id}) { id body }`).join(' ')} }`;
    return post(remoteUrl, { query });
  };
  // Warm-up (plans compiled, connections open), and the answer checked once.
  for (let i = 0; i < 30; i++) await Promise.all([joined(), twoTrips()]);
  const check = await joined();
  if (check.author.length !== AUTHORS || check.author[99].posts.length !== 3) throw new Error('the joined answer is not complete');
  remoteRequests = 0;
  const engineJoin = await timedRuns(REQUESTS, joined);
  const perQuery = remoteRequests / REQUESTS;
  const client = await timedRuns(REQUESTS, twoTrips);
  const lines = [
    `- ${AUTHORS} rows joined to a remote schema, ${REQUESTS} queries one at a time: ${perQuery} remote request per query (goal: exactly 1); latency p50 ${engineJoin.p50.toFixed(2)} ms, p95 ${engineJoin.p95.toFixed(2)} ms`,
    `- the same data fetched by the client in two round trips (the rows from the engine, then one batched remote query): p50 ${client.p50.toFixed(2)} ms, p95 ${client.p95.toFixed(2)} ms`,
    `- joined by the engine / two round trips, p50: ${(engineJoin.p50 / client.p50).toFixed(2)}× (goal: at most 1.5×)`,
  ];
  for (const line of lines) console.log(line);
  const date = new Date().toISOString().slice(0, 10);
  writeResultsSection(
    '## remote joins (`bench/remote-joins.mjs`)',
    `## remote joins (\`bench/remote-joins.mjs\`)

A remote relationship over ${AUTHORS} rows against a graphql-js server in the bench process. ${date}, ${os.cpus().length} × ${os.cpus()[0]?.model.split(' ').slice(0, 2).join(' ') ?? 'cpu'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, the remote server, the database and the engine on the same machine:

${lines.join('\n')}
`,
  );
} finally {
  await engine?.stop();
  remote.close();
  await db.drop();
  await server.stop();
}
