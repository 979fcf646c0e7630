// What metrics add to one /v1/graphql request on the front thread, measured in process (no
// network, no database, so the figure does not move with the machine's load): the calls a
// metered request makes (an HTTP exchange opened, its body read, the GraphQL outcome with its
// execution time, the exchange closed with its response's byte length), against the same
// request's server CPU in bench/graphql.mjs (RESULTS.md, "GraphQL queries"). Also the time of
// one scrape with the front thread's registry alone (the actors' answers add a thread hop each).
import { FrontMetrics } from '../dist/observability/metrics/front.js';
import { scrapeMetrics } from '../dist/observability/metrics/scrape.js';

const N = 2_000_000;
const body = '{"data":{"article_by_pk":{"id":1,"title":"a title of some length","rating":4}}}';
const metrics = new FrontMetrics(() => [['default', 16]]);

function run(n) {
  for (let i = 0; i < n; i++) {
    const startedAt = performance.now();
    metrics.opened();
    metrics.received(120);
    metrics.request('query', true, startedAt);
    metrics.closed(Buffer.byteLength(body));
  }
}

run(N / 10); // warm-up
const rounds = [];
for (let r = 0; r < 5; r++) {
  const t = performance.now();
  run(N);
  rounds.push(((performance.now() - t) * 1e6) / N);
}
rounds.sort((a, b) => a - b);
const perRequestNs = rounds[2];
const scrapes = [];
for (let i = 0; i < 20; i++) {
  const t = performance.now();
  await scrapeMetrics(metrics.json(), []);
  scrapes.push(performance.now() - t);
}
scrapes.sort((a, b) => a - b);
console.log(`metered request, front thread: ${perRequestNs.toFixed(0)} ns (median of 5 rounds of ${N})`);
console.log(`  against W1's server CPU of 0.051 ms/request (RESULTS.md): ${((perRequestNs / 51_000) * 100).toFixed(2)}%`);
console.log(`scrape of the front thread's registry: p50 ${scrapes[10].toFixed(2)} ms`);
