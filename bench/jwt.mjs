// What JWT verification costs per request on W1 (an article by primary key), with the
// token cached (the same token every request, as a client sends it) and not cached (a new token
// every request, so every signature is verified), beside the admin secret as a baseline.
// Tokens are RS256 (the costly kind to verify). Writes "JWT verification" into bench/RESULTS.md.
//
// Environment: SERVICE_BENCH_DATABASE_URL, else an embedded PostgreSQL; BENCH_DURATION_SECONDS (10).
import autocannon from 'autocannon';
import { generateKeyPairSync, createSign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { benchServer, freshDatabase, startEngine } from './_support.mjs';
import { writeResultsSection } from './graphql/support.mjs';

const DURATION_S = Number(process.env.BENCH_DURATION_SECONDS ?? 10);
const ARTICLES = 10_000;
/** More distinct tokens than the engine remembers (10,000): every one of them misses. */
const FRESH_TOKENS = 30_000;
const SECRET = 'bench-secret';
const QUERY = 'query W1($id: Int!) { article_by_pk(id: $id) { id title rating published } }';

const b64url = (v) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64url');

function signer() {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const sign = (claims) => {
    const head = `${b64url({ alg: 'RS256', typ: 'JWT' })}.${b64url(claims)}`;
    return `${head}.${createSign('RSA-SHA256').update(head).sign(privateKey).toString('base64url')}`;
  };
  return { pem: publicKey.export({ type: 'spki', format: 'pem' }).toString(), sign };
}

function token(sign, n) {
  const claims = { 'x-service-allowed-roles': ['reader'], 'x-service-default-role': 'reader', 'x-service-user-id': String(n) };
  return sign({ sub: String(n), exp: Math.floor(Date.now() / 1000) + 3600, 'https://service.io/jwt/claims': claims });
}

/** CPU milliseconds the process has used (all threads), from /proc (utime + stime, in 100 Hz clock ticks). */
function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function run(engine, headersOf) {
  let k = 0;
  const cpu0 = cpuMs(engine.pid);
  const r = await autocannon({
    url: `${engine.url}/v1/graphql`,
    connections: 32,
    duration: DURATION_S,
    requests: [{ method: 'POST', setupRequest: (req) => { const n = k++; return { ...req, headers: { 'content-type': 'application/json', ...headersOf(n) }, body: JSON.stringify({ query: QUERY, variables: { id: (n % ARTICLES) + 1 } }) }; } }],
  });
  const requests = r.requests.total;
  return { rps: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99, cpu: (cpuMs(engine.pid) - cpu0) / requests, failed: r.non2xx + r.errors };
}

const server = await benchServer();
const db = await freshDatabase(server.url);
try {
  await db.sql(`CREATE TABLE article (id int PRIMARY KEY, title text NOT NULL, rating int NOT NULL, published boolean NOT NULL);
    INSERT INTO article SELECT i, 'Article ' || i, i % 100, i % 10 < 6 FROM generate_series(1, ${ARTICLES}) i;`);
  const { pem, sign } = signer();
  const engine = await startEngine({
    SERVICE_GRAPHQL_DATABASE_URL: db.url,
    SERVICE_GRAPHQL_ADMIN_SECRET: SECRET,
    SERVICE_GRAPHQL_JWT_SECRET: JSON.stringify({ type: 'RS256', key: pem }),
  });
  const admin = { 'x-service-admin-secret': SECRET };
  const meta = await fetch(`${engine.url}/v1/metadata`, { method: 'POST', headers: { 'content-type': 'application/json', ...admin }, body: JSON.stringify({ type: 'export_metadata', args: {} }) }).then((r) => r.json());
  meta.sources[0].configuration.connection_info.use_prepared_statements = true;
  meta.sources[0].tables = [{ table: { schema: 'public', name: 'article' }, select_permissions: [{ role: 'reader', permission: { columns: ['id', 'title', 'rating', 'published'], filter: {} } }] }];
  await fetch(`${engine.url}/v1/metadata`, { method: 'POST', headers: { 'content-type': 'application/json', ...admin }, body: JSON.stringify({ type: 'replace_metadata', args: meta }) });
  const same = `Bearer ${token(sign, 1)}`;
  const fresh = Array.from({ length: FRESH_TOKENS }, (_, n) => `Bearer ${token(sign, n)}`);
  const results = {
    'admin secret (no token)': await run(engine, () => ({ ...admin, 'x-service-role': 'reader' })),
    'JWT, same token (cached)': await run(engine, () => ({ authorization: same })),
    'JWT, new token every request': await run(engine, (n) => ({ authorization: fresh[n % FRESH_TOKENS] })),
  };
  await engine.stop();
  const rows = Object.entries(results).map(([name, r]) => `| ${name} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.cpu.toFixed(3)} | ${r.failed} |`);
  const cpus = os.cpus();
  const section = `## JWT verification (\`bench/jwt.mjs\`)

W1 (\`article_by_pk\`, id varying) as role \`reader\`, authenticated three ways; RS256
tokens. "Same token" is what a client does (the verified token is remembered); "new token every
request" cycles through ${FRESH_TOKENS.toLocaleString('en')} tokens, more than the engine remembers, so every
signature is checked. Server CPU is the engine process (all threads) per request.

${new Date().toISOString().slice(0, 10)}, ${cpus.length} × ${cpus[0]?.model.trim()}, Node ${process.version}; autocannon 32 connections, ${DURATION_S} s per row.

| authentication | req/s | p50 ms | p99 ms | server CPU ms/req | failed |
|---|---:|---:|---:|---:|---:|
${rows.join('\n')}
`;
  console.log(section);
  writeResultsSection('## JWT verification', section);
} finally {
  await db.drop();
  await server.stop();
}
