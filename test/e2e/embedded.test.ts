import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { relocationFolder } from '../../src/db/pg-placement.js';
import { startEngine, type Engine } from '../support/engine.js';

// No database URL: the engine starts its own PostgreSQL in the data folder.
let dataDir: string;
let engine: Engine | undefined;
const boot = () => startEngine({ SERVICE_GRAPHQL_DATA_DIR: dataDir, HOME: process.env.HOME ?? '/tmp' });
const pidFile = () => join(dataDir, 'pg', 'postmaster.pid');

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'service-embedded-'));
});

afterAll(async () => {
  await engine?.stop();
  await rm(dataDir, { recursive: true, force: true });
  // Where binaries user postgres could not reach were copied (a project in root's home).
  await rm(relocationFolder(dataDir), { recursive: true, force: true });
});

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('embedded mode', () => {
  it('starts its own PostgreSQL, says so, and answers', { timeout: 120_000 }, async () => {
    engine = await boot();
    expect(engine.logs.some((l) => l.includes('starting the embedded PostgreSQL'))).toBe(true);
    expect((await engine.runSql('CREATE TABLE note (id serial PRIMARY KEY, body text)')).status).toBe(200);
    expect((await engine.metadata({ type: 'pg_track_table', args: { table: 'note' } })).status).toBe(200);
  });

  it('stops the embedded server on SIGTERM', { timeout: 60_000 }, async () => {
    const pid = Number(readFileSync(pidFile(), 'utf8').split('\n')[0]);
    expect(alive(pid)).toBe(true);
    expect(await engine!.stop('SIGTERM')).toBe(0);
    engine = undefined;
    expect(existsSync(pidFile())).toBe(false);
    expect(alive(pid)).toBe(false);
  });

  it('reuses the data on a second start', { timeout: 60_000 }, async () => {
    engine = await boot();
    expect(engine.logs.some((l) => l.includes('initialising embedded PostgreSQL'))).toBe(false);
    const m = (await engine.metadata({ type: 'export_metadata', args: {} })).body;
    expect(m.sources[0].tables).toEqual([{ table: { schema: 'public', name: 'note' } }]);
    expect((await engine.runSql('SELECT count(*) AS n FROM note')).body.result).toEqual([['n'], ['0']]);
  });
});
