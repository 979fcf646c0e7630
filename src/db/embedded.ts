/**
 * The embedded PostgreSQL used when no database URL is configured: data kept in a
 * local folder, started on a free loopback port, stopped on shutdown. Run as root, the
 * server runs as user `postgres`, with the binaries and data relocated when that user
 * cannot reach them (pg-placement.ts). Any failure rejects with one message naming it.
 */
import { constants, existsSync } from 'node:fs';
import { chmod, chown, mkdir, realpath, rm, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { POSTGRES_USER, postgresAccount, usableBy, type Account } from './pg-account.js';
import { binariesUsableBy, copyBinaries, installedBinaries, relocationFolder, RELOCATION_ROOT, rootOnlyFolder } from './pg-placement.js';
import { initdb, runningServerPort, startPostgres, stopByPidFile, stopChild, type RunAs } from './pg-process.js';

export interface EmbeddedServer {
  /** URL of the `postgres` database as superuser. */
  url: string;
  port: number;
  /** Where the data lives: the given data dir, or its relocation folder. */
  dataDir: string;
  stop(): Promise<void>;
}

type Log = (msg: string, fields?: Record<string, unknown>) => void;

export interface EmbeddedOptions {
  /**
   * An installed PostgreSQL's folder (holding `bin/`) to run instead of the npm package's
   * binaries: the tests' PostGIS server is Debian's PostgreSQL 15, which has the extension.
   */
  installation?: string;
}

const PASSWORD = 'postgres';

const urlFor = (port: number) => `postgres://${POSTGRES_USER}:${PASSWORD}@127.0.0.1:${port}/postgres`;

/** Rejects with `embedded PostgreSQL could not start: <cause>`, one line. */
export async function startEmbeddedPostgres(dataDir: string, log: Log, options: EmbeddedOptions = {}): Promise<EmbeddedServer> {
  try {
    return await start(resolve(dataDir), log, options);
  } catch (e) {
    const cause = (e instanceof Error ? e.message : String(e)).replace(/\s*\n\s*/g, ' ');
    throw new Error(`embedded PostgreSQL could not start: ${cause}`);
  }
}

async function start(root: string, log: Log, options: EmbeddedOptions): Promise<EmbeddedServer> {
  await mkdir(root, { recursive: true });
  const account = process.getuid?.() === 0 ? await postgresAccount() : null;
  const runAs: RunAs = account ? { uid: account.uid, gid: account.gid } : {};
  const dataRoot = await dataFolder(root, account, log);
  const pgData = join(dataRoot, 'pg');

  const orphanPort = await runningServerPort(pgData);
  if (orphanPort !== null) {
    log('reusing embedded PostgreSQL left running by a previous process', { dataDir: dataRoot, port: orphanPort });
    // We did not start it, but we own the data folder: stop it with ours.
    return { url: urlFor(orphanPort), port: orphanPort, dataDir: dataRoot, stop: () => stopByPidFile(pgData) };
  }

  const binDir = join(options.installation ?? (await binaries(root, account, log)), 'bin');
  if (!existsSync(join(pgData, 'PG_VERSION'))) {
    log('initialising embedded PostgreSQL', { dataDir: dataRoot });
    await initialise(binDir, dataRoot, pgData, runAs);
  }
  const port = await freePort();
  const debug = process.env.SERVICE_EMBEDDED_PG_DEBUG;
  const child = await startPostgres(binDir, pgData, port, runAs, (text) => debug && log('embedded PostgreSQL output', { detail: text }));
  log('embedded PostgreSQL started', { dataDir: dataRoot, port });
  return { url: urlFor(port), port, dataDir: dataRoot, stop: () => stopChild(child) };
}

/** The folder holding `pg/`: the data dir itself, or its relocation folder when `postgres` cannot reach it. */
async function dataFolder(root: string, account: Account | null, log: Log): Promise<string> {
  if (!account) return root;
  // A 0700 data folder (e.g. from mkdtemp) only needs search rights added; its parents are not ours to change.
  await chmod(root, (await stat(root)).mode | 0o011);
  if (await usableBy(root, account, constants.X_OK)) return realpath(root);
  const folder = await ownRelocationFolder(root);
  log(`user ${POSTGRES_USER} cannot reach the data folder: the embedded PostgreSQL data lives in ${folder}`, {
    dataDir: root,
    location: folder,
    ...(existsSync(join(root, 'pg', 'PG_VERSION')) && { unusedData: join(root, 'pg') }),
  });
  return folder;
}

/** The installed binaries' folder, or a copy in the relocation folder when `postgres` cannot run them. */
async function binaries(root: string, account: Account | null, log: Log): Promise<string> {
  const { native, version } = installedBinaries();
  if (!account || (await binariesUsableBy(native, account))) return native;
  const copy = await copyBinaries(native, version, await ownRelocationFolder(root));
  log(`user ${POSTGRES_USER} cannot reach the PostgreSQL binaries: running a copy`, { from: native, to: copy });
  return copy;
}

async function ownRelocationFolder(root: string): Promise<string> {
  const folder = relocationFolder(root);
  await rootOnlyFolder(RELOCATION_ROOT);
  await rootOnlyFolder(folder);
  return folder;
}

async function initialise(binDir: string, dataRoot: string, pgData: string, runAs: RunAs): Promise<void> {
  await mkdir(pgData, { recursive: true, mode: 0o700 });
  // initdb reads the superuser's password from a file, which only the server's user may read.
  const passwordFile = join(dataRoot, `.initdb-password-${process.pid}`);
  await writeFile(passwordFile, PASSWORD + '\n', { mode: 0o600 });
  try {
    if (runAs.uid !== undefined) {
      await chown(pgData, runAs.uid, runAs.gid!);
      await chown(passwordFile, runAs.uid, runAs.gid!);
    }
    await initdb(binDir, pgData, POSTGRES_USER, passwordFile, runAs);
  } finally {
    await rm(passwordFile, { force: true });
  }
}

function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const addr = s.address();
      s.close(() => (typeof addr === 'object' && addr ? ok(addr.port) : fail(new Error('no port'))));
    });
  });
}
