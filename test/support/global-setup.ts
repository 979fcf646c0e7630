/**
 * The PostgreSQL servers of the whole run:
 * - `databaseUrl`: `SERVICE_TEST_DATABASE_URL` when set, else an embedded one kept in
 *   `.service-test/` of the project (reused between runs);
 * - `postgisUrl`, for the tests that need PostGIS: `SERVICE_TEST_POSTGIS_URL` when set, else the
 *   server above when it has the extension, else Debian's PostgreSQL 15 with PostGIS
 *   (`postgresql-15-postgis-3`, which `.ci/run` installs) started the same way in
 *   `.service-test/postgis/`; empty when none is there (those tests then fail, saying so);
 * - `redisUrl`: `SERVICE_TEST_REDIS_URL` when set, else Debian's `redis-server` started on a free
 *   port (redis.ts); empty when it is not installed (the tests that need it fail, saying so).
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres, type EmbeddedServer } from '../../src/db/embedded.js';
import { redisInstalled, startRedis, type RedisServer } from './redis.js';

const DATA_DIR = fileURLToPath(new URL('../../.service-test', import.meta.url));
const POSTGIS_DATA_DIR = fileURLToPath(new URL('../../.service-test/postgis', import.meta.url));
/** Debian's PostgreSQL 15 and its PostGIS package. */
const DEBIAN_POSTGRES = '/usr/lib/postgresql/15';
const DEBIAN_POSTGIS = '/usr/share/postgresql/15/extension/postgis.control';

const servers: EmbeddedServer[] = [];
let redis: RedisServer | undefined;
const log = (message: string, fields?: Record<string, unknown>) => console.log(message, JSON.stringify(fields ?? {}));

async function start(dataDir: string, options: Parameters<typeof startEmbeddedPostgres>[2], remedy: string): Promise<string> {
  try {
    const server = await startEmbeddedPostgres(dataDir, log, options);
    servers.push(server);
    return server.url;
  } catch (e) {
    // A thrown error would be reported with a stack trace: one line says it all.
    console.error(`${(e as Error).message}; ${remedy}`);
    process.exit(1);
  }
}

async function hasPostgis(url: string): Promise<boolean> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(`SELECT 1 FROM pg_available_extensions WHERE name = 'postgis'`)).rowCount === 1;
  } finally {
    await c.end();
  }
}

async function postgisServer(databaseUrl: string): Promise<string> {
  if (process.env.SERVICE_TEST_POSTGIS_URL) return process.env.SERVICE_TEST_POSTGIS_URL;
  if (await hasPostgis(databaseUrl)) return databaseUrl;
  if (!existsSync(DEBIAN_POSTGIS)) return '';
  return start(POSTGIS_DATA_DIR, { installation: DEBIAN_POSTGRES }, 'set SERVICE_TEST_POSTGIS_URL to a PostgreSQL server with PostGIS');
}

export async function setup(project: TestProject): Promise<void> {
  const url = process.env.SERVICE_TEST_DATABASE_URL ?? (await start(DATA_DIR, {}, 'set SERVICE_TEST_DATABASE_URL to test against another PostgreSQL server'));
  project.provide('databaseUrl', url);
  project.provide('postgisUrl', await postgisServer(url));
  if (!process.env.SERVICE_TEST_REDIS_URL && redisInstalled()) redis = await startRedis();
  project.provide('redisUrl', process.env.SERVICE_TEST_REDIS_URL ?? redis?.url ?? '');
}

export async function teardown(): Promise<void> {
  await Promise.all([...servers.map((s) => s.stop()), redis?.stop()]);
}

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
    postgisUrl: string;
    redisUrl: string;
  }
}
