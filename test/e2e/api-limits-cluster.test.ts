/**
 * Rate limits across a cluster: two engines on one metadata database count in one Redis
 * (`SERVICE_GRAPHQL_RATE_LIMIT_REDIS_URL`), so the limit holds for both together; with Redis
 * killed, both still answer, each counting on its own (logged), and once Redis is back they
 * share its windows again. The Redis layout: one sorted set per window under
 * `service:rate-limit:`. Choices: docs/operations.md "API limits".
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../support/db.js';
import { startEngine, type Engine } from '../support/engine.js';
import { logged, sleep } from '../support/graphql-ws.js';
import { until } from '../support/events.js';
import { startRedis, type RedisServer } from '../support/redis.js';

const LIMIT = 20;
const admin = { 'x-service-admin-secret': 'adm' };
const as = (user: string) => ({ ...admin, 'x-service-role': 'user', 'x-service-user-id': user });

let db: TestDatabase;
let redis: RedisServer;
let one: Engine;
let two: Engine;

async function ask(engine: Engine, user: string): Promise<'ok' | 'limited'> {
  const r = await engine.post('/v1/graphql', { query: '{ item { id } }' }, as(user));
  if (r.body.data) return 'ok';
  expect(r.body.errors[0].extensions.code).toBe('rate-limit-exceeded');
  return 'limited';
}

/** `n` requests of `user`, alternating between the engines, all at once. */
async function burst(engines: Engine[], user: string, n: number): Promise<number> {
  const answers = await Promise.all(Array.from({ length: n }, (_, i) => ask(engines[i % engines.length]!, user)));
  return answers.filter((a) => a === 'ok').length;
}

beforeAll(async () => {
  [db, redis] = await Promise.all([freshDatabase(), startRedis()]);
  await db.sql('CREATE TABLE item (id int PRIMARY KEY); INSERT INTO item VALUES (1)');
  const env = { SERVICE_GRAPHQL_DATABASE_URL: db.url, SERVICE_GRAPHQL_ADMIN_SECRET: 'adm', SERVICE_GRAPHQL_RATE_LIMIT_REDIS_URL: redis.url, SERVICE_GRAPHQL_REDIS_CONNECT_TIMEOUT: '0.5' };
  one = await startEngine(env);
  two = await startEngine(env);
  for (const [type, args] of [
    ['pg_track_table', { table: 'item' }],
    ['pg_create_select_permission', { table: 'item', role: 'user', permission: { columns: ['id'], filter: {} } }],
    ['set_api_limits', { rate_limit: { global: { max_reqs_per_min: LIMIT, unique_params: ['x-service-user-id'] } } }],
  ] as const) {
    expect((await one.metadata({ type, args }, admin)).body).toEqual({ message: 'success' });
  }
  // The other engine has the limits once the change reached it.
  let probe = 0;
  const limitOn = async (e: Engine) => {
    const r = await fetch(`${e.url}/v1/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...as(`probe-${probe++}`) }, body: '{"query":"{ item { id } }"}' });
    return r.headers.get('ratelimit-limit') === String(LIMIT);
  };
  await until('the limits on the second engine', () => limitOn(two));
}, 60_000);

afterAll(async () => {
  await Promise.all([one?.stop(), two?.stop()]);
  await redis?.stop();
  await db?.drop();
});

describe('two engines sharing one Redis', () => {
  it('hold the rate limit together: at twice the allowed rate, the limit gets through (within 5%)', async () => {
    const through = await burst([one, two], 'shared', 2 * LIMIT);
    expect(Math.abs(through - LIMIT)).toBeLessThanOrEqual(LIMIT * 0.05);
    // Both engines refuse from now on.
    expect(await ask(one, 'shared')).toBe('limited');
    expect(await ask(two, 'shared')).toBe('limited');
    const client = new Redis(redis.url);
    const keys = await client.keys('service:rate-limit:*');
    expect(keys).toContain('service:rate-limit:user:shared');
    expect(await client.zcard('service:rate-limit:user:shared')).toBe(LIMIT);
    expect(await client.pttl('service:rate-limit:user:shared')).toBeGreaterThan(50_000);
    client.disconnect();
  });

  it('keep answering while Redis is down, each counting on its own, and share again once it is back', async () => {
    const from = [one.logs.length, two.logs.length] as const;
    await redis.stop(true);
    // Each engine lets the limit through on its own.
    expect(await burst([one], 'outage', LIMIT + 5)).toBe(LIMIT);
    expect(await burst([two], 'outage', LIMIT + 5)).toBe(LIMIT);
    expect(logged(one, 'rate limits are counted on this node while the shared store does not answer', from[0])).toHaveLength(1);
    expect(logged(two, 'rate limits are counted on this node while the shared store does not answer', from[1])).toHaveLength(1);
    await redis.restart();
    await until('both engines reconnected', () => logged(one, 'the rate limits store is reachable', from[0]).length > 0 && logged(two, 'the rate limits store is reachable', from[1]).length > 0, 10_000);
    // Past the pause that follows a command that failed while connected (the first one after the kill, maybe).
    await sleep(1100);
    const through = await burst([one, two], 'recovered', 2 * LIMIT);
    expect(Math.abs(through - LIMIT)).toBeLessThanOrEqual(LIMIT * 0.05);
  }, 30_000);

  it('keep answering when Redis stops answering (frozen), within the connection timeout, and share again once it answers', async () => {
    redis.pause();
    try {
      const started = Date.now();
      expect(await burst([one], 'frozen', LIMIT + 5)).toBe(LIMIT);
      // Each request waited at most the command timeout (0.5 s here).
      expect(Date.now() - started).toBeLessThan(2000);
      // Right after, the frozen store is left alone: no request waits.
      const quick = Date.now();
      expect(await ask(one, 'frozen-after')).toBe('ok');
      expect(Date.now() - quick).toBeLessThan(300);
    } finally {
      redis.resume();
    }
    await sleep(1100);
    const through = await burst([one, two], 'thawed', 2 * LIMIT);
    expect(Math.abs(through - LIMIT)).toBeLessThanOrEqual(LIMIT * 0.05);
  }, 30_000);
});
