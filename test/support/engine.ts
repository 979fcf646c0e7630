/** Starts the built engine (`dist/main.js`) as a child process and talks to it over HTTP. */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const MAIN = fileURLToPath(new URL('../../dist/main.js', import.meta.url));

export interface Engine {
  url: string;
  port: number;
  process: ChildProcess;
  logs: string[];
  /** POSTs a JSON body; returns status and parsed body. */
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<{ status: number; body: any }>;
  metadata(body: unknown, headers?: Record<string, string>): Promise<{ status: number; body: any }>;
  query(body: unknown, headers?: Record<string, string>): Promise<{ status: number; body: any }>;
  runSql(sql: string, extra?: Record<string, unknown>): Promise<{ status: number; body: any }>;
  /** Stops the engine; rejects when it logged one of its own secrets (`secretsOf`). */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * The secrets an engine is configured with that no line it writes may hold (docs/operations.md
 * "Logs"), checked for every engine of the suite when it stops: its admin secrets and its JWT
 * key, those long enough to be told apart from the words of log lines (`admin-secret` is part
 * of the header's name).
 */
function secretsOf(env: Record<string, string>): string[] {
  const secrets = [env.SERVICE_GRAPHQL_ADMIN_SECRET, ...(env.SERVICE_GRAPHQL_ADMIN_SECRETS?.split(',') ?? [])];
  try {
    const jwt = JSON.parse(env.SERVICE_GRAPHQL_JWT_SECRET ?? 'null') as { key?: unknown } | null;
    if (typeof jwt?.key === 'string') secrets.push(jwt.key);
  } catch {
    /* a malformed setting, refused by the engine */
  }
  return secrets.map((s) => s?.trim()).filter((s): s is string => !!s && s.length >= 6 && !'x-service-admin-secret'.includes(s));
}

/** `main` runs another copy of the engine (a project copied elsewhere), from `cwd`. */
export async function startEngine(env: Record<string, string>, args: string[] = [], at: { main?: string; cwd?: string } = {}): Promise<Engine> {
  const child = spawn(process.execPath, [at.main ?? MAIN, ...args], {
    cwd: at.cwd,
    // A stop lets work in flight end for 10 s, not the default minute: tests stop engines with
    // webhooks that hang (test/e2e/graceful-shutdown.test.ts sets its own).
    env: { PATH: process.env.PATH ?? '', SERVICE_GRAPHQL_SERVER_PORT: '0', SERVICE_GRAPHQL_SERVER_HOST: '127.0.0.1', SERVICE_GRAPHQL_GRACEFUL_SHUTDOWN_TIMEOUT: '10', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: string[] = [];
  const secrets = secretsOf(env);
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`engine did not become ready:\n${logs.join('\n')}`)), 30_000);
    createInterface({ input: child.stdout! }).on('line', (line) => {
      logs.push(line);
      try {
        const entry = JSON.parse(line) as { type?: string; detail?: { message?: string; port?: number } };
        if (entry.type === 'startup' && entry.detail?.message === 'server ready' && entry.detail.port) {
          clearTimeout(timer);
          resolve(entry.detail.port);
        }
      } catch {
        /* not a log line */
      }
    });
    createInterface({ input: child.stderr! }).on('line', (line) => logs.push(line));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`engine exited with code ${code} before it was ready:\n${logs.join('\n')}`));
    });
  });
  const url = `http://127.0.0.1:${port}`;
  const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(url + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      /* plain text */
    }
    return { status: res.status, body: parsed as any };
  };
  return {
    url,
    port,
    process: child,
    logs,
    post,
    metadata: (b, h) => post('/v1/metadata', b, h),
    query: (b, h) => post('/v1/query', b, h),
    runSql: (sql, extra = {}) => post('/v2/query', { type: 'run_sql', args: { sql, ...extra } }),
    stop: async (signal = 'SIGTERM') => {
      const code = await new Promise<number | null>((resolve) => {
        if (child.exitCode !== null) return resolve(child.exitCode);
        child.once('exit', (c) => resolve(c));
        child.kill(signal);
      });
      const leaked = secrets.flatMap((secret) => logs.filter((l) => l.includes(secret)));
      if (leaked.length > 0) throw new Error(`the engine logged one of its secrets:\n${leaked.join('\n')}`);
      return code;
    },
  };
}
