/**
 * Runs the PostgreSQL binaries: `initdb` once, then `postgres` as a child process until it
 * accepts connections. Every way a child can fail (cannot be spawned, exits early, never
 * gets ready) rejects with an `Error` whose message names it; nothing is left unhandled.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Runs the binaries as this user and group (root's engine), else as the current user. */
export interface RunAs {
  uid?: number;
  gid?: number;
}

/** Messages in English whatever the machine's locale: readiness is read from them. */
const ENV = { LC_MESSAGES: 'C' };
const READY = 'database system is ready to accept connections';
const READY_TIMEOUT_MS = 60_000;

/**
 * Spawns `file`; `onError` gets spawn failures (e.g. EACCES), which arrive as an event.
 * `detached`: in a process group of its own, out of reach of a terminal's Ctrl-C.
 */
function start(file: string, args: string[], runAs: RunAs, onError: (e: Error) => void, detached = false): ChildProcess {
  const child = spawn(file, args, { ...runAs, env: ENV, stdio: ['ignore', 'pipe', 'pipe'], detached });
  child.on('error', (e) => onError(new Error(`cannot run ${file}: ${e.message}`)));
  return child;
}

function lastLine(text: string): string {
  return text.trim().split('\n').at(-1)?.trim() ?? '';
}

export function initdb(binDir: string, pgData: string, user: string, passwordFile: string, runAs: RunAs): Promise<void> {
  const args = [
    `--pgdata=${pgData}`,
    '--auth=scram-sha-256',
    `--username=${user}`,
    `--pwfile=${passwordFile}`,
    '--encoding=UTF8',
    // C.UTF-8 exists wherever glibc does; en_US.UTF-8 (the package's choice) often does not.
    '--locale=C.UTF-8',
    '--lc-messages=C',
  ];
  return new Promise((resolve, reject) => {
    let output = '';
    const child = start(join(binDir, 'initdb'), args, runAs, reject);
    child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`initdb failed (exit code ${code}): ${lastLine(output)}`))));
  });
}

/** Resolves with the running server once it accepts connections. */
export function startPostgres(binDir: string, pgData: string, port: number, runAs: RunAs, onOutput: (text: string) => void): Promise<ChildProcess> {
  const args = ['-D', pgData, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=300', '-c', 'unix_socket_directories='];
  return new Promise((resolve, reject) => {
    let settled = false;
    let last = '';
    const settle = (e: Error | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (e) reject(e);
      else resolve(child);
    };
    // Detached: a Ctrl-C in the engine's terminal signals its whole process group, and the
    // server must outlive the engine's graceful shutdown (the queries in flight), which stops it last.
    const child = start(join(binDir, 'postgres'), args, runAs, settle, true);
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      settle(new Error(`postgres did not accept connections within ${READY_TIMEOUT_MS / 1000} s: ${last}`));
    }, READY_TIMEOUT_MS);
    // Read for as long as the server runs: a full pipe would block its logging.
    child.stdout!.resume();
    child.stderr!.on('data', (c: Buffer) => {
      const text = c.toString();
      onOutput(text);
      last = lastLine(text) || last;
      if (text.includes(READY)) settle(null);
    });
    child.on('exit', (code, signal) => settle(new Error(`postgres exited (${signal ?? `code ${code}`}) before accepting connections: ${last}`)));
  });
}

/** Fast shutdown (SIGINT) of the server this process started. */
export function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGINT');
  });
}

interface PidFile {
  pid: number;
  port: number;
  /** Line 8 of postmaster.pid: `starting`, `ready`, `stopping` or `standby`. */
  status: string;
}

function readPidFile(pgData: string): PidFile | null {
  const pidFile = join(pgData, 'postmaster.pid');
  if (!existsSync(pidFile)) return null;
  const lines = readFileSync(pidFile, 'utf8').split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  return Number.isInteger(pid) && Number.isInteger(port) ? { pid, port, status: lines[7]?.trim() ?? '' } : null;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const STOPPING_WAIT_MS = 30_000;

/**
 * A server left running by a previous process that was killed (kill -9): its port, to reuse it.
 * One that is shutting down (it accepts no new connection) is waited for, then not reused.
 */
export async function runningServerPort(pgData: string): Promise<number | null> {
  const found = readPidFile(pgData);
  if (!found || !alive(found.pid)) return null;
  if (found.status !== 'stopping') return found.port;
  for (const deadline = Date.now() + STOPPING_WAIT_MS; alive(found.pid); ) {
    if (Date.now() > deadline) throw new Error(`the server left in ${pgData} (pid ${found.pid}) is still shutting down`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return null;
}

/** Fast shutdown of a server this process adopted, waiting until it has removed its pid file. */
export async function stopByPidFile(pgData: string): Promise<void> {
  const found = readPidFile(pgData);
  if (!found) return;
  try {
    process.kill(found.pid, 'SIGINT');
  } catch {
    return; // already gone
  }
  for (let i = 0; i < 100 && existsSync(join(pgData, 'postmaster.pid')); i++) await new Promise((r) => setTimeout(r, 100));
}
