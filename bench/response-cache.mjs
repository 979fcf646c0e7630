// The response cache: W3 (10 authors, 5 latest articles each, a comment count per article: the
// query workload with aggregates) with `@cached` against the same query without it, on the query
// bench's dataset, engine only (in-process store). Both draw their variables from the same 100
// windows of author ids, so that the cached run is mostly hits after its warm-up, as a read-heavy
// API repeating its queries would be; the uncached run pays the database every time. Goal: the
// cached W3 at least 5x the uncached one. Prints the figures; writes them into bench/RESULTS.md
// ("GraphQL response cache") unless BENCH_TARGETS picks targets.
//
// Environment: as bench/graphql.mjs: BENCH_WARMUP_SECONDS (3), BENCH_DURATION_SECONDS (10),
// BENCH_POOL_SIZE (16), BENCH_TARGETS.
import { benchSettings, ratio, runBench } from './graphql/harness.mjs';
import { TARGETS } from './graphql/targets.mjs';
import { WORKLOADS } from './graphql/workloads.mjs';

/** Distinct variable values: each is a miss once, then hits. */
const WINDOWS = 100;
const W3 = WORKLOADS.find((w) => w.name === 'W3');
const repeated = { ...W3, name: 'W3-repeated', about: `W3 over ${WINDOWS} id windows`, variables: (k) => W3.variables(k % WINDOWS) };
const cached = { ...repeated, name: 'W3-cached', about: `W3-repeated with @cached`, service: W3.service.replace('query W3($ids: [Int!]!)', 'query W3($ids: [Int!]!) @cached') };

function report({ results }) {
  const get = (workload) => results.find((r) => r.target === 'engine' && r.workload === workload);
  const [plain, hit] = [get('W3-repeated'), get('W3-cached')];
  return [`- W3 with @cached / without: ${ratio(hit, plain)}x (goal ≥ 5).`];
}

await runBench({
  settings: benchSettings({ warmupS: 3, durationS: 10 }),
  workloads: [repeated, cached],
  targets: TARGETS.filter((t) => t.name === 'engine'),
  report,
  title: 'GraphQL response cache',
  script: 'response-cache.mjs',
  intro: [
    `W3 (10 authors, their 5 latest articles, a comment count per article) over ${WINDOWS} windows of author ids,`,
    'without and with `@cached` (in-process store, default limits): after the warm-up every cached request is a hit.',
  ],
});
