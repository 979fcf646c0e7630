// What the API limits add to one role's /v1/graphql request on the front thread, measured in
// process (no network, no database, so the figure does not move with the machine's load): the
// role's limits looked up, the rate limit counted in memory (a sliding window per user), the
// plan's depth and node count compared, the time limit armed and disarmed around the execution
// (its deadline queued, and watched by the statement), against the same request's server CPU in
// bench/graphql.mjs (RESULTS.md, "GraphQL queries"; the targets engine-limits and
// engine-limits-redis measure the whole request, the second with the rate limit in Redis).
// Also the same steps with no limits set: what the feature costs when it is off.
import { ApiLimitsGuard, checkSize } from '../dist/graphql/api-limits.js';
import { RateWindows } from '../dist/graphql/rate-windows.js';
import { Deadlines } from '../dist/execute/deadlines.js';
import { setImmediate as turn } from 'node:timers/promises';

const N = 500_000;
const USERS = 1_000;
const limits = {
  disabled: false,
  rate_limit: { global: { max_reqs_per_min: 1_000_000_000, unique_params: ['x-service-user-id'] } },
  depth_limit: { global: 10 },
  node_limit: { global: 50 },
  time_limit: { global: 30 },
  batch_limit: { global: 10 },
};
const plan = { size: { depth: 1, nodes: 1 } };
const sessions = Array.from({ length: USERS }, (_, i) => ({ role: 'user', variables: { 'x-service-role': 'user', 'x-service-user-id': String(i) }, isAdmin: false, useBackendOnlyPermissions: false }));
const execute = () => Promise.resolve('{"data":{}}');
/** The statement watching the deadline to cancel itself (backends/pg/statement-cancel.ts). */
const statement = (deadline) => {
  const unwatch = deadline.onExpiry(() => {});
  return execute().finally(unwatch);
};
const deadlines = new Deadlines();

/** What service.ts does around a request: the same calls, in the same order. */
async function request(guard, session) {
  const l = guard.of(session);
  const now = l ? performance.now() : 0;
  if (l) {
    const admitting = guard.admit(l, session, now);
    if (admitting instanceof Promise) await admitting;
  }
  if (l) checkSize(l, plan);
  const deadline = l?.time !== undefined ? deadlines.start(l.time, now) : undefined;
  return deadline ? deadline.bound(statement(deadline)) : execute();
}

/** 32 requests at a time (the bench's connections), the event loop turning between batches (timers fire, as in the server). */
async function measure(guard) {
  const run = async (n) => {
    for (let i = 0; i < n; i += 32) {
      await Promise.all(Array.from({ length: 32 }, (_, j) => request(guard, sessions[(i + j) % USERS])));
      await turn();
    }
  };
  await run(N / 10); // warm-up
  const rounds = [];
  for (let r = 0; r < 5; r++) {
    const t = performance.now();
    await run(N);
    rounds.push(((performance.now() - t) * 1e6) / N);
  }
  return rounds.sort((a, b) => a - b)[2];
}

const windows = new RateWindows(null);
const off = new ApiLimitsGuard(windows);
const on = new ApiLimitsGuard(windows);
on.update(limits);
const baseline = await measure(off);
const limited = await measure(on);
await windows.close();
deadlines.close();
console.log(`no limits set: ${baseline.toFixed(0)} ns per request (the promises and batching alone; median of 5 rounds of ${N})`);
console.log(`every limit set, rate limit in memory (${USERS} users): ${limited.toFixed(0)} ns, +${(limited - baseline).toFixed(0)} ns`);
// W1's server CPU per request on the 2-core machine (bench/RESULTS.md, 2026-11-28: 0.19 ms); another machine passes its own.
const w1Ms = Number(process.env.BENCH_W1_SERVER_CPU_MS ?? '0.19');
console.log(`  against W1's server CPU of ${w1Ms} ms/request (BENCH_W1_SERVER_CPU_MS): ${(((limited - baseline) / (w1Ms * 1e6)) * 100).toFixed(2)}% (goal < 3%)`);
