/** Fresh databases on the test server, one per test file or engine. */
import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { inject } from 'vitest';

export interface TestDatabase {
  url: string;
  name: string;
  /** Runs SQL directly, beside the engine. */
  sql(text: string, params?: unknown[]): Promise<pg.QueryResult>;
  drop(): Promise<void>;
}

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/** `serverUrl`: the run's server (see global-setup.ts) unless said. */
export async function freshDatabase(serverUrl = inject('databaseUrl')): Promise<TestDatabase> {
  const name = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = withDatabase(serverUrl, name);
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  // DROP DATABASE ... WITH (FORCE) ends idle clients: not an error of the test.
  pool.on('error', () => {});
  return {
    url,
    name,
    sql: (text, params) => pool.query(text, params as unknown[]),
    /** Idempotent: a test may drop its database early (an unreachable source, a lost store). */
    async drop() {
      if (pool.ended) return;
      await pool.end();
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await c.end();
    },
  };
}

/**
 * A fresh database with PostGIS created, on the run's PostGIS server; fails, saying what to
 * install, when there is none (a test needing PostGIS never skips).
 */
export async function postgisDatabase(): Promise<TestDatabase> {
  const serverUrl = inject('postgisUrl');
  if (!serverUrl) throw new Error("this test needs PostGIS: install Debian's postgresql-15-postgis-3 (.ci/run does) or set SERVICE_TEST_POSTGIS_URL");
  const db = await freshDatabase(serverUrl);
  await db.sql('CREATE EXTENSION postgis');
  return db;
}

/** The major version of the `pg_dump` the engine would run (the first on PATH), or 0 when there is none. */
function pgDumpMajor(): number {
  const r = spawnSync('pg_dump', ['--version'], { encoding: 'utf8' });
  return Number(/\(PostgreSQL\) (\d+)/.exec(r.stdout ?? '')?.[1] ?? 0);
}

async function serverMajor(url: string): Promise<number> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return Math.floor(Number((await c.query('SHOW server_version_num')).rows[0].server_version_num) / 10_000);
  } finally {
    await c.end();
  }
}

/**
 * A fresh database on a server the installed `pg_dump` can dump (it refuses a server newer than
 * itself): the run's server, else its PostGIS server (Debian's PostgreSQL 15, beside Debian's
 * pg_dump); fails, saying what to install, when neither fits (never skips).
 */
export async function pgDumpDatabase(): Promise<TestDatabase> {
  const major = pgDumpMajor();
  for (const url of [inject('databaseUrl'), inject('postgisUrl')].filter((u) => u !== '')) {
    if (major >= (await serverMajor(url))) return freshDatabase(url);
  }
  throw new Error(`this test needs a pg_dump at least as new as the test server (found ${major || 'none'}): install Debian's postgresql-client-15 with postgresql-15-postgis-3 (.ci/run does) or set SERVICE_TEST_DATABASE_URL to a server it can dump`);
}
