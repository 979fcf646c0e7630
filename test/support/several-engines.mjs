// Two engines on one database under mixed load and faults, as several engines behind a load
// balancer run: GraphQL inserts (each row an event for a local webhook), counters updated while
// live subscribers watch them, queries, and a metadata change every few seconds (run_sql creating
// a table, then pg_track_table, through one engine; the table queried through the other). Each
// engine is stopped in turn, by kill -9 or SIGTERM, and started again at once; clients go to the
// engines that are up, and subscribers reconnect there when their socket closes. Returns what a
// user would check: acknowledged writes and events lost, duplicate deliveries, subscribers left
// at a stale value, how long an engine took to serve another's new table, whether the engines
// converged, any 5xx from an engine that was up, restart-to-healthy times.
//
// Shared by the end-to-end test (test/e2e/several-engines-faults.test.ts: short) and the bench
// (bench/several-engines.mjs: longer, figures in bench/RESULTS.md). JavaScript, so both can run it.
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import WebSocket from 'ws';

const MAIN = fileURLToPath(new URL('../../dist/main.js', import.meta.url));
const COUNTERS = 4;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** p50, p99 and max of a list of milliseconds (rounded), or nulls when empty. */
export function spread(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p) => (sorted.length ? Math.round(sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]) : null);
  return { n: sorted.length, p50: at(0.5), p99: at(0.99), max: sorted.length ? Math.round(sorted[sorted.length - 1]) : null };
}

/** A local webhook recording, per inserted `n`, when its events arrived. */
async function startWebhook() {
  const received = new Map();
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const n = Number(JSON.parse(Buffer.concat(chunks).toString()).event.data.new.n);
      const list = received.get(n) ?? [];
      list.push(performance.now());
      received.set(n, list);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${server.address().port}/hook`, received, close: () => new Promise((r) => server.close(r)) };
}

/**
 * One engine process, restartable. `up` is true from its "server ready" until a signal is sent to
 * it; `complaints` are its warn and error log lines.
 */
class EngineProcess {
  constructor(name, env) {
    this.name = name;
    this.env = env;
    this.up = false;
    this.url = null;
    this.child = null;
    this.complaints = [];
  }

  start() {
    const child = spawn(process.execPath, [MAIN], {
      env: { PATH: process.env.PATH ?? '', SERVICE_GRAPHQL_SERVER_PORT: '0', SERVICE_GRAPHQL_SERVER_HOST: '127.0.0.1', ...this.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    createInterface({ input: child.stderr }).on('line', (line) => this.complaints.push(line));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${this.name} did not become ready`)), 30_000);
      child.once('exit', (code) => {
        clearTimeout(timer);
        this.up = false;
        reject(new Error(`${this.name} exited with code ${code}`));
      });
      createInterface({ input: child.stdout }).on('line', (line) => {
        let entry;
        try {
          entry = JSON.parse(line);
        } catch {
          return;
        }
        if (entry.level === 'warn' || entry.level === 'error') this.complaints.push(line);
        if (entry.detail?.message === 'server ready') {
          clearTimeout(timer);
          this.url = `http://127.0.0.1:${entry.detail.port}`;
          this.up = true;
          resolve();
        }
      });
    });
  }

  /** Sends `signal` and waits for the process to end. */
  stop(signal) {
    const child = this.child;
    this.up = false;
    if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
    return new Promise((r) => {
      child.once('exit', () => r());
      child.kill(signal);
    });
  }
}

/**
 * Runs the scenario on `databaseUrl` (an empty database: metadata store and source at once).
 * Options: durationMs of load, subscribers, insertsPerSecond, metadataEveryMs, settleMs (how long
 * after the load the checks wait for deliveries and subscribers).
 */
export async function runSeveralEngines({ databaseUrl, durationMs = 30_000, subscribers = 40, insertsPerSecond = 20, metadataEveryMs = 4_000, settleMs = 20_000 }) {
  const db = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  db.on('error', () => {});
  const webhook = await startWebhook();
  // A deprecation (a query sent on a busy connection) comes with where it was made.
  const env = { NODE_OPTIONS: '--trace-deprecation', SERVICE_GRAPHQL_DATABASE_URL: databaseUrl, SERVICE_GRAPHQL_EVENTS_FETCH_INTERVAL: '100' };
  const engines = [new EngineProcess('one', env), new EngineProcess('two', env)];
  const sockets = new Set();
  let stopping = false;
  const report = {
    durationMs,
    acknowledgedWrites: 0,
    lostWrites: [],
    rowsWritten: 0,
    lostEvents: [],
    duplicateDeliveries: 0,
    deliveryMs: null,
    fiveHundreds: [],
    restarts: [],
    tablesMade: 0,
    servedByOtherMs: [],
    convergence: null,
    subscribers,
    staleSubscribers: [],
    complaints: [],
  };

  /** POST through `engine`; a 5xx from an engine that was up when the request was sent is recorded. */
  async function post(engine, path, body) {
    const url = engine.url;
    const wasUp = engine.up;
    let res;
    try {
      res = await fetch(url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    } catch {
      return null;
    }
    const text = await res.text().catch(() => '');
    if (res.status >= 500 && wasUp) report.fiveHundreds.push({ engine: engine.name, path, status: res.status, body: text.slice(0, 300) });
    try {
      return { status: res.status, body: JSON.parse(text) };
    } catch {
      return { status: res.status, body: text };
    }
  }
  const upEngines = () => engines.filter((e) => e.up);
  const anyUp = (i) => {
    const up = upEngines();
    return up.length ? up[i % up.length] : null;
  };
  const gql = (engine, query) => post(engine, '/v1/graphql', { query });
  const served = async (engine, query) => {
    const r = await gql(engine, query);
    return r !== null && r.status === 200 && !r.body.errors;
  };

  try {
    await db.query(`CREATE TABLE counter (id int PRIMARY KEY, value int NOT NULL);
      INSERT INTO counter SELECT g, 0 FROM generate_series(1, ${COUNTERS}) g;
      CREATE TABLE write (n int PRIMARY KEY)`);
    await Promise.all(engines.map((e) => e.start()));
    const [one] = engines;
    for (const table of ['counter', 'write']) await post(one, '/v1/metadata', { type: 'pg_track_table', args: { table } });
    const trigger = { name: 'write_made', table: 'write', webhook: webhook.url, insert: { columns: '*' }, retry_conf: { num_retries: 10, interval_sec: 1, timeout_sec: 2 } };
    const made = await post(one, '/v1/metadata', { type: 'pg_create_event_trigger', args: trigger });
    if (made?.status !== 200) throw new Error(`the event trigger could not be made: ${JSON.stringify(made?.body)}`);
    for (const e of engines) {
      while (!(await served(e, '{ write { n } counter { id } }'))) await sleep(50);
    }

    // Subscribers: each watches one counter through an engine that is up, reconnecting when its socket closes.
    const last = new Array(subscribers).fill(null);
    const subscribe = (i) => {
      if (stopping) return;
      const engine = anyUp(i + Math.floor(Math.random() * 2));
      if (!engine) return void setTimeout(() => subscribe(i), 100);
      const ws = new WebSocket(engine.url.replace('http', 'ws') + '/v1/graphql', 'graphql-transport-ws');
      sockets.add(ws);
      const again = () => {
        sockets.delete(ws);
        if (!stopping) setTimeout(() => subscribe(i), 100 + Math.random() * 200);
      };
      ws.on('error', () => {});
      ws.on('close', again);
      ws.on('open', () => ws.send(JSON.stringify({ type: 'connection_init', payload: {} })));
      ws.on('message', (data) => {
        const m = JSON.parse(data.toString());
        if (m.type === 'connection_ack') ws.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: `subscription { counter_by_pk(id: ${1 + (i % COUNTERS)}) { value } }` } }));
        else if (m.type === 'next' && m.payload.data?.counter_by_pk) last[i] = m.payload.data.counter_by_pk.value;
        else if (m.type === 'ping') ws.send(JSON.stringify({ type: 'pong' }));
      });
    };
    for (let i = 0; i < subscribers; i++) subscribe(i);

    const start = performance.now();
    const loadEnds = start + durationMs;
    /** Acknowledged inserts: when each was sent. */
    const acknowledgedAt = new Map();
    const loops = [];

    // Inserts, each an event.
    loops.push(
      (async () => {
        let n = 0;
        const gap = 1000 / insertsPerSecond;
        const inFlight = new Set();
        while (performance.now() < loadEnds) {
          const mine = ++n;
          const engine = anyUp(mine);
          if (engine) {
            const sentAt = performance.now();
            const p = gql(engine, `mutation { insert_write_one(object: {n: ${mine}}) { n } }`).then((r) => {
              if (r?.status === 200 && r.body.data?.insert_write_one) acknowledgedAt.set(mine, sentAt);
            });
            inFlight.add(p);
            void p.finally(() => inFlight.delete(p));
          }
          await sleep(gap);
        }
        await Promise.all(inFlight);
      })(),
    );

    // Counters: one update every 100 ms, the values growing.
    loops.push(
      (async () => {
        let v = 0;
        while (performance.now() < loadEnds) {
          const engine = anyUp(++v);
          if (engine) await gql(engine, `mutation { update_counter_by_pk(pk_columns: {id: ${1 + (v % COUNTERS)}}, _set: {value: ${v}}) { id } }`);
          await sleep(100);
        }
      })(),
    );

    // Queries: one every 50 ms.
    loops.push(
      (async () => {
        let i = 0;
        while (performance.now() < loadEnds) {
          const engine = anyUp(++i);
          if (engine) await gql(engine, '{ counter(order_by: {id: asc}) { id value } write_aggregate { aggregate { count } } }');
          await sleep(50);
        }
      })(),
    );

    // Metadata: a table made and tracked through one engine, queried through the other.
    const madeTables = [];
    loops.push(
      (async () => {
        let i = 0;
        while (performance.now() + metadataEveryMs < loadEnds) {
          await sleep(metadataEveryMs);
          const table = `made_${++i}`;
          let through = null;
          for (let attempt = 0; attempt < 50 && !through; attempt++) {
            const engine = anyUp(i + attempt);
            const sql = await (engine && post(engine, '/v2/query', { type: 'run_sql', args: { sql: `CREATE TABLE IF NOT EXISTS ${table} (id int PRIMARY KEY); INSERT INTO ${table} VALUES (${i}) ON CONFLICT DO NOTHING` } }));
            const tracked = sql?.status === 200 ? await post(engine, '/v1/metadata', { type: 'pg_track_table', args: { table } }) : null;
            if (tracked?.status === 200 || tracked?.body?.code === 'already-tracked') through = engine;
            else await sleep(100);
          }
          if (!through) throw new Error(`${table} could not be made through any engine`);
          madeTables.push(table);
          const trackedAt = performance.now();
          const other = engines.find((e) => e !== through);
          if (!other?.up) continue;
          while (!(await served(other, `{ ${table} { id } }`))) {
            if (!other.up || performance.now() - trackedAt > 5000) break;
            await sleep(10);
          }
          if (other.up) report.servedByOtherMs.push(performance.now() - trackedAt);
        }
      })(),
    );

    // Faults: each engine stopped in turn and started again, one at a time.
    const faults = [
      [0.2, 0, 'SIGKILL'],
      [0.4, 1, 'SIGTERM'],
      [0.6, 1, 'SIGKILL'],
      [0.8, 0, 'SIGTERM'],
    ];
    loops.push(
      (async () => {
        for (const [at, which, signal] of faults) {
          const wait = start + at * durationMs - performance.now();
          if (wait > 0) await sleep(wait);
          const engine = engines[which];
          await engine.stop(signal);
          const restarted = performance.now();
          await engine.start();
          while (!(await fetch(`${engine.url}/healthz`).then((r) => r.ok).catch(() => false))) await sleep(10);
          report.restarts.push({ engine: engine.name, signal, restartToHealthyMs: Math.round(performance.now() - restarted) });
        }
      })(),
    );

    await Promise.all(loops);
    report.tablesMade = madeTables.length;

    // Every acknowledged write is stored; every stored row is delivered (at least once).
    const settleEnds = performance.now() + settleMs;
    const rows = (await db.query('SELECT n FROM write')).rows.map((r) => r.n);
    const stored = new Set(rows);
    report.rowsWritten = rows.length;
    report.acknowledgedWrites = acknowledgedAt.size;
    report.lostWrites = [...acknowledgedAt.keys()].filter((n) => !stored.has(n));
    while (rows.some((n) => !webhook.received.has(n)) && performance.now() < settleEnds) await sleep(100);
    report.lostEvents = rows.filter((n) => !webhook.received.has(n));
    report.duplicateDeliveries = [...webhook.received.values()].reduce((sum, at) => sum + at.length - 1, 0);
    report.deliveryMs = spread([...acknowledgedAt].filter(([n]) => webhook.received.has(n)).map(([n, at]) => webhook.received.get(n)[0] - at));

    // Every subscriber ends at its counter's stored value.
    const values = new Map((await db.query('SELECT id, value FROM counter')).rows.map((r) => [r.id, r.value]));
    const staleOnes = () => last.flatMap((v, i) => (v === values.get(1 + (i % COUNTERS)) ? [] : [{ subscriber: i, value: v, stored: values.get(1 + (i % COUNTERS)) }]));
    while (staleOnes().length > 0 && performance.now() < settleEnds) await sleep(100);
    report.staleSubscribers = staleOnes();

    // Both engines on one metadata version, serving every table made.
    const convergedAt = performance.now();
    const state = async (e) => {
      const r = await post(e, '/v1/metadata', { type: 'export_metadata', version: 2, args: {} });
      return r?.status === 200 ? `${r.body.resource_version} ${r.body.metadata.sources[0].tables.length}` : null;
    };
    const query = `{ ${madeTables.map((t) => `${t} { id }`).join(' ') || '__typename'} }`;
    let converged = false;
    while (!converged && performance.now() < convergedAt + 5000) {
      const [a, b] = await Promise.all(engines.map(state));
      converged = a !== null && a === b && (await served(engines[0], query)) && (await served(engines[1], query));
      if (!converged) await sleep(50);
    }
    report.convergence = { converged, ms: Math.round(performance.now() - convergedAt) };
    report.complaints = engines.flatMap((e) => e.complaints.map((line) => `${e.name}: ${line}`));
    return report;
  } finally {
    stopping = true;
    for (const ws of sockets) ws.terminate();
    await Promise.all(engines.map((e) => e.stop('SIGTERM')));
    await webhook.close();
    await db.end();
  }
}
