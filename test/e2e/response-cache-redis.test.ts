/**
 * The response cache in Redis (`SERVICE_GRAPHQL_REDIS_URL`), end to end with a real
 * `redis-server`: two engines on one metadata database and one Redis share their entries (a query
 * cached by one is a hit on the other), a write seen by one (a mutation, or a write in the
 * database directly) evicts for both, and Redis killed mid-run leaves every query answered (from
 * the database, counted `unavailable`) until it is back, when caching resumes by itself.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../support/db.js';
import { startEngine, type Engine } from '../support/engine.js';
import { until } from '../support/events.js';
import { startRedis, type RedisServer } from '../support/redis.js';
import { parsePrometheusText, sampleValue } from '../support/prometheus-text.js';

const ADMIN = { 'x-service-admin-secret': 'admin-secret' };

let db: TestDatabase;
let redis: RedisServer;
let a: Engine;
let b: Engine;

async function ask(engine: Engine, query: string): Promise<{ body: any; key: string | null }> {
  const r = await fetch(`${engine.url}/v1/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...ADMIN }, body: JSON.stringify({ query }) });
  return { body: await r.json(), key: r.headers.get('x-service-query-cache-key') };
}

const VIEW = 'query Shown @cached { shown_view { v } }';
const shown = async (engine: Engine) => (await ask(engine, VIEW)).body.data.shown_view[0].v as string;
const setShown = (v: string) => db.sql(`UPDATE shown SET v = $1`, [v]);
const NOTES = 'query Notes @cached { note_aggregate { aggregate { count } } }';
const notes = async (engine: Engine) => (await ask(engine, NOTES)).body.data.note_aggregate.aggregate.count as number;

async function unavailable(engine: Engine): Promise<number> {
  const r = await fetch(`${engine.url}/v1/metrics`);
  return sampleValue(parsePrometheusText(await r.text()), 'service_cache_request_count', { status: 'unavailable' }) ?? 0;
}

beforeAll(async () => {
  [db, redis] = await Promise.all([freshDatabase(), startRedis()]);
  await db.sql(`
    CREATE TABLE note (id serial PRIMARY KEY, body text NOT NULL);
    CREATE TABLE shown (v text NOT NULL);
    INSERT INTO shown VALUES ('a');
    CREATE VIEW shown_view AS SELECT v FROM shown;`);
  const env = { SERVICE_GRAPHQL_DATABASE_URL: db.url, SERVICE_GRAPHQL_ADMIN_SECRET: 'admin-secret', SERVICE_GRAPHQL_ENABLED_APIS: 'metadata,graphql,metrics', SERVICE_GRAPHQL_REDIS_URL: redis.url, SERVICE_GRAPHQL_REDIS_CONNECT_TIMEOUT: '0.5' };
  a = await startEngine(env);
  for (const table of ['note', 'shown_view']) expect((await a.metadata({ type: 'pg_track_table', args: { table } }, ADMIN)).status).toBe(200);
  b = await startEngine(env);
  await until('the second engine serves the tables', async () => (await ask(b, VIEW)).body.data !== undefined);
});

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await redis?.stop();
  await db?.drop();
});

describe('@cached with Redis, two engines', () => {
  it('an answer cached by one engine is a hit on the other', async () => {
    await fetch(`${a.url}/pro/cache/clear`, { method: 'POST', headers: ADMIN });
    await setShown('shared');
    const first = await ask(a, VIEW);
    expect(first.body.data.shown_view[0].v).toBe('shared');
    await setShown('changed');
    const other = await ask(b, VIEW);
    expect(other.body.data.shown_view[0].v).toBe('shared');
    expect(other.key).toBe(first.key);
    // Cleared on one engine, gone for both.
    await fetch(`${b.url}/pro/cache/clear?key=${first.key}`, { method: 'POST', headers: ADMIN });
    expect(await shown(a)).toBe('changed');
  });

  it('a mutation on one engine evicts for both', async () => {
    const before = await notes(a);
    expect(await notes(b)).toBe(before);
    const m = await ask(b, 'mutation { insert_note_one(object: {body: "on b"}) { id } }');
    expect(m.body.data.insert_note_one.id).toBeGreaterThan(0);
    expect(await notes(a)).toBe(before + 1);
  });

  it('a write in the database directly evicts for both', async () => {
    const before = await notes(a);
    expect(await notes(b)).toBe(before);
    await db.sql(`INSERT INTO note (body) VALUES ('by psql')`);
    await until('engine a sees the write', async () => (await notes(a)) === before + 1);
    await until('engine b sees the write', async () => (await notes(b)) === before + 1);
  });

  it('answers from the database while Redis is down, and caches again once it is back', async () => {
    await setShown('up');
    expect(await shown(a)).toBe('up');
    await redis.stop(true);
    const counted = await unavailable(a);
    await setShown('down');
    // Bypassed: fresh answers, without cache headers.
    await until('the cache is bypassed', async () => (await shown(a)) === 'down');
    const bypassed = await ask(a, VIEW);
    expect(bypassed.key).toBeNull();
    expect(await unavailable(a)).toBeGreaterThan(counted);
    // Writes while Redis is down are evicted once it is back (Redis restarted empty here anyway).
    await redis.restart();
    await until('caching resumes', async () => (await ask(a, VIEW)).key !== null, 15_000);
    await setShown('back');
    expect(await shown(b)).toBe('down');
  });
});
