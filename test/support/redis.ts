/**
 * Redis servers for the tests: Debian's `redis-server` (which `.ci/run` installs), started on a
 * free local port with nothing saved to disk. `SERVICE_TEST_REDIS_URL` names another server for
 * the run's shared one. A test that stops and restarts Redis starts its own (`startRedis`).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

const MISSING = "this test needs Redis: install Debian's redis-server (.ci/run does) or set SERVICE_TEST_REDIS_URL";
const START_TIMEOUT_MS = 10_000;

export interface RedisServer {
  url: string;
  port: number;
  /** Stops the server (SIGKILL when `kill`: as a crash, else a clean shutdown). */
  stop(kill?: boolean): Promise<void>;
  /** Starts it again on the same port (after `stop`). */
  restart(): Promise<void>;
  /** Freezes the server (SIGSTOP): connections stay open and nothing is answered, as behind a network that drops packets. */
  pause(): void;
  /** Thaws it (SIGCONT). */
  resume(): void;
}

export const redisInstalled = (): boolean => spawnSync('redis-server', ['--version']).status === 0;

export async function startRedis(): Promise<RedisServer> {
  if (!redisInstalled()) throw new Error(MISSING);
  const port = await freePort();
  let child: ChildProcess | undefined = await launch(port);
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async stop(kill = false) {
      const c = child;
      child = undefined;
      if (!c || c.exitCode !== null) return;
      const exited = new Promise((resolve) => c.once('exit', resolve));
      c.kill(kill ? 'SIGKILL' : 'SIGTERM');
      await exited;
    },
    async restart() {
      if (child) throw new Error('Redis is still running');
      child = await launch(port);
    },
    pause: () => void child?.kill('SIGSTOP'),
    resume: () => void child?.kill('SIGCONT'),
  };
}

async function launch(port: number): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'no'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`redis-server did not start in ${START_TIMEOUT_MS} ms: ${output}`)), START_TIMEOUT_MS);
    child.stdout!.on('data', (d: Buffer) => {
      output += d.toString();
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited (${code}): ${output}`));
    });
  });
  child.stdout!.resume();
  child.stderr!.resume();
  return child;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** The run's shared Redis server (global-setup.ts); throws, saying what to install, when there is none. */
export function sharedRedisUrl(provided: string): string {
  if (!provided) throw new Error(MISSING);
  return provided;
}
