// Shared by the bench scripts: a PostgreSQL to measure against, and engine processes.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';
import pg from 'pg';

const MAIN = new URL('../dist/main.js', import.meta.url).pathname;

/** The server to use: SERVICE_BENCH_DATABASE_URL, else an embedded one kept in `.service-bench/`. */
export async function benchServer() {
  if (process.env.SERVICE_BENCH_DATABASE_URL) return { url: process.env.SERVICE_BENCH_DATABASE_URL, stop: async () => {} };
  const { startEmbeddedPostgres } = await import('../dist/db/embedded.js');
  const server = await startEmbeddedPostgres(new URL('../.service-bench', import.meta.url).pathname, () => {});
  return { url: server.url, stop: () => server.stop() };
}

/**
 * A new database on the server, dropped by `drop()`; `copy()` makes another one as a copy of it
 * (nobody may be connected to it meanwhile).
 */
export async function freshDatabase(serverUrl, template = null) {
  const name = `bench_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ''}`);
  await admin.end();
  const u = new URL(serverUrl);
  u.pathname = `/${name}`;
  const url = u.toString();
  return {
    url,
    copy: () => freshDatabase(serverUrl, name),
    async sql(text) {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      try {
        return await c.query(text);
      } finally {
        await c.end();
      }
    },
    async drop() {
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await c.end();
    },
  };
}

/** Starts `dist/main.js`; resolves when it logs "server ready", with the time that took. `onLog` gets every log entry. */
export function startEngine(env, onLog = () => {}) {
  const started = performance.now();
  // SERVICE_BENCH_NODE_ARGS (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`) profiles the engine under a bench.
  const nodeArgs = process.env.SERVICE_BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const child = spawn(process.execPath, [...nodeArgs, MAIN], {
    env: { PATH: process.env.PATH ?? '', SERVICE_GRAPHQL_SERVER_PORT: '0', SERVICE_GRAPHQL_SERVER_HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`engine exited with code ${code}`)));
    createInterface({ input: child.stdout }).on('line', (line) => {
      // Lines that are not log entries (V8's --trace-gc under SERVICE_BENCH_NODE_ARGS) go to stderr.
      if (!line.startsWith('{')) return void process.stderr.write(line + '\n');
      // A line is {timestamp, level, type, detail}; `onLog` gets its detail with its level and type beside.
      const { level, type, detail } = JSON.parse(line);
      const entry = { level, type, ...detail };
      onLog(entry);
      if (entry.message !== 'server ready') return;
      const url = `http://127.0.0.1:${entry.port}`;
      resolve({
        url,
        pid: child.pid,
        bootMs: performance.now() - started,
        /** `body` as an object, or as its JSON text (serialised before a timer starts). */
        post: async (path, body) => {
          const res = await fetch(url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) });
          const json = await res.json();
          if (res.status !== 200) throw new Error(`${path} ${res.status}: ${JSON.stringify(json).slice(0, 300)}`);
          return json;
        },
        stop: () =>
          new Promise((r) => {
            child.removeAllListeners('exit');
            child.once('exit', () => r());
            child.kill('SIGTERM');
          }),
      });
    });
  });
}

export function percentiles(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
  return { p50: at(50), p95: at(95), p99: at(99), n: sorted.length };
}

export async function timed(fn) {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}
