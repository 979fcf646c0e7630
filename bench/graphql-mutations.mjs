// The mutation benchmark: the query bench's fixed dataset, with an identity on article.id
// so that inserts take new ids, copied into a database per target; the raw ceiling and this
// engine driven by autocannon through M1 (insert_article_one, as admin and as role `writer`
// whose preset and check read a session variable) and M2 (update_article_by_pk). Prints the
// figures and writes them into bench/RESULTS.md ("GraphQL mutations").
//
// Environment: as bench/graphql.mjs, with shorter defaults to keep `npm run bench` short:
// BENCH_WARMUP_SECONDS (3), BENCH_DURATION_SECONDS (10); BENCH_POOL_SIZE (16);
// BENCH_TARGETS=ceiling or engine to measure only one (then RESULTS.md is left alone).
import { ARTICLE_IDENTITY_SQL } from './graphql/dataset.mjs';
import { benchSettings, ratio, runBench } from './graphql/harness.mjs';
import { TARGETS } from './graphql/targets.mjs';
import { MUTATIONS, WRITER } from './graphql/workloads.mjs';

/** The ratio to the ceiling per workload, and what the permission costs. */
function report({ results }) {
  const get = (target, workload) => results.find((r) => r.target === target && r.workload === workload);
  const lines = ['| workload | engine/ceiling |', '|---|---:|'];
  for (const w of MUTATIONS) lines.push(`| ${w.name} | ${ratio(get('engine', w.name), get('ceiling', w.name))} |`);
  const [m1, m1Role] = [get('engine', 'M1'), get('engine', 'M1-role')];
  lines.push('');
  if (m1 && m1Role) {
    const cost = (1 - m1Role.rps / m1.rps) * 100;
    lines.push(
      `- Permissions, engine: M1 as role \`${WRITER.role}\` (preset and check on a session variable) ${m1Role.rps.toFixed(0)} req/s vs ` +
        `${m1.rps.toFixed(0)} as admin: cost ${cost.toFixed(1)}%${cost < 0 ? ' (negative: within noise)' : ''}.`,
    );
  }
  return lines;
}

await runBench({
  settings: benchSettings({ warmupS: 3, durationS: 10 }),
  workloads: MUTATIONS,
  targets: TARGETS.filter((t) => t.name === 'ceiling' || t.name === 'engine'),
  setupSql: ARTICLE_IDENTITY_SQL,
  copyPerTarget: true,
  report,
  title: 'GraphQL mutations',
  script: 'graphql-mutations.mjs',
  intro: [
    'On the dataset of the queries above (each target on its own copy of it): M1 `insert_article_one`',
    '(author, title, rating and published vary per request; the id comes from an identity after the',
    "dataset's) returning `id title rating`; M1-role the same as role `writer`, whose insert permission",
    'presets `author_id` from `X-Service-User-Id` (varying per request) and checks it against the same',
    'variable; M2 `update_article_by_pk` setting `rating` (the id spread over the 100,000 articles so that',
    'concurrent requests touch different rows) returning `id rating`. The ceiling runs each as one',
    'prepared `INSERT`/`UPDATE ... RETURNING json_build_object(...)` in autocommit (M1-role evaluates the',
    'check in `RETURNING`). The engine runs a mutation in an explicit transaction: `BEGIN`, the',
    "statement, `COMMIT`, three round trips to the ceiling's one. Wrapped the same way (measured by hand",
    'twice on 2026-11-22, the machine shared), the ceiling made 5,500 to 6,200 req/s on M1 and M1-role and',
    '7,000 to 8,300 on M2: that transaction is most of the gap below. Commits wait for the WAL flush',
    '(`synchronous_commit = on`, the default), so other sessions writing to the same disk slow these',
    'figures too, which "others" does not show. Columns as in the queries section.',
  ],
});
