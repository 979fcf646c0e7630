// The console's weight and first load (docs/console.md): the size of its build (raw and gzipped,
// as the engine serves it), what a first visit of /console/api transfers, and how long that
// visit takes in a headless Chromium (Debian's, or SERVICE_BENCH_CHROMIUM) until the page is
// usable: cold (nothing cached) and warm (hashed assets cached), 10 visits each. Goal: under 1 s on localhost.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { benchServer, freshDatabase, percentiles, startEngine } from './_support.mjs';

const CHROMIUM = process.env.SERVICE_BENCH_CHROMIUM ?? '/usr/bin/chromium';
const SECRET = 'bench-console-secret';
const VISITS = 10;
const dir = new URL('../dist/console/', import.meta.url).pathname;
if (!existsSync(`${dir}index.html`)) throw new Error('dist/console is not built: run npm run build');
if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}: install Debian's chromium or set SERVICE_BENCH_CHROMIUM`);

const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
const files = readdirSync(`${dir}assets`).map((f) => {
  const body = readFileSync(`${dir}assets/${f}`);
  return { name: f, raw: body.length, gzip: gzipSync(body, { level: 9 }).length };
});
const total = files.reduce((s, f) => ({ raw: s.raw + f.raw, gzip: s.gzip + f.gzip }), { raw: statSync(`${dir}index.html`).size, gzip: 0 });
console.log(`console build: ${files.length} assets, ${kib(total.raw)} raw, ${kib(total.gzip)} gzipped`);
for (const f of files.sort((a, b) => b.raw - a.raw).slice(0, 5)) console.log(`  ${f.name}: ${kib(f.raw)} raw, ${kib(f.gzip)} gzipped`);

const server = await benchServer();
const db = await freshDatabase(server.url);
await db.sql('CREATE TABLE author (id serial PRIMARY KEY, name text)');
const engine = await startEngine({ SERVICE_GRAPHQL_DATABASE_URL: db.url, SERVICE_GRAPHQL_ADMIN_SECRET: SECRET, SERVICE_GRAPHQL_ENABLE_CONSOLE: 'true' });
const admin = { 'content-type': 'application/json', 'x-service-admin-secret': SECRET };
await fetch(`${engine.url}/v1/metadata`, { method: 'POST', headers: admin, body: JSON.stringify({ type: 'pg_track_table', args: { table: 'author' } }) });
const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
try {
  // A visit of `path` until `ready` shows; `signedIn`: the admin secret's session cookie is
  // there, as after the sign-in.
  const visit = async (context, path, ready) => {
    const page = await context.newPage();
    let bytes = 0;
    page.on('response', (r) => {
      if (r.url().includes('/console/')) bytes += Number(r.headers()['content-length'] ?? 0);
    });
    const t = performance.now();
    await page.goto(`${engine.url}${path}`);
    await ready(page).waitFor();
    const ms = performance.now() - t;
    await page.close();
    return { ms, bytes };
  };
  const newContext = async (signedIn) => {
    const context = await browser.newContext();
    if (signedIn) await context.addCookies([{ name: 'service-console-admin-secret', value: SECRET, url: `${engine.url}/console` }]);
    return context;
  };
  const pages = [
    // A new user's first page: the sign-in form.
    { name: 'sign-in page', path: '/console', signedIn: false, ready: (p) => p.getByLabel('Admin secret') },
    { name: 'Data (tables of a schema)', path: '/console/data/default/schema/public', signedIn: true, ready: (p) => p.getByRole('link', { name: 'author', exact: true }).first() },
    // GraphiQL ready: its query editor drawn, the schema read.
    { name: 'API (GraphiQL ready)', path: '/console/api', signedIn: true, ready: (p) => p.locator('.graphiql-query-editor .CodeMirror') },
  ];
  for (const { name, path, signedIn, ready } of pages) {
    const cold = [];
    let transferred = 0;
    for (let i = 0; i < VISITS; i++) {
      const context = await newContext(signedIn);
      const v = await visit(context, path, ready);
      cold.push(v.ms);
      transferred = v.bytes;
      await context.close();
    }
    const context = await newContext(signedIn);
    await visit(context, path, ready);
    const warm = [];
    for (let i = 0; i < VISITS; i++) warm.push((await visit(context, path, ready)).ms);
    await context.close();
    const p = (s) => percentiles(s).p50.toFixed(0);
    console.log(`${name}: transfers ${kib(transferred)} when nothing is cached; until usable, cold p50 ${p(cold)} ms (max ${Math.max(...cold).toFixed(0)}), warm p50 ${p(warm)} ms (max ${Math.max(...warm).toFixed(0)}) (goal < 1000 ms)`);
  }
} finally {
  await browser.close();
  await engine.stop();
  await db.drop();
  await server.stop();
}
