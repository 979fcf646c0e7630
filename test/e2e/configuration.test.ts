import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const MAIN = fileURLToPath(new URL('../../dist/main.js', import.meta.url));

/** Runs the engine to its exit; boot must fail before any database is needed. */
function boot(env: Record<string, string>, args: string[] = []): Promise<{ code: number | null; lines: Record<string, unknown>[] }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [MAIN, ...args], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('exit', (code) => resolve({ code, lines: out.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>) }));
  });
}

describe('a bad configuration value', () => {
  it.each([
    [{ SERVICE_GRAPHQL_SERVER_PORT: 'abc' }, [], 'SERVICE_GRAPHQL_SERVER_PORT / --server-port: expected an integer from 0 to 65535, got "abc"'],
    [{ SERVICE_GRAPHQL_DATABASE_URL: 'mysql://h/db' }, [], 'SERVICE_GRAPHQL_DATABASE_URL / --database-url: expected a postgres:// or postgresql:// URL, got "mysql:"'],
    [{ SERVICE_GRAPHQL_LOG_LEVEL: 'loud' }, [], 'SERVICE_GRAPHQL_LOG_LEVEL / --log-level: expected debug, info, warn or error, got "loud"'],
    [{}, ['--server-port', '70000'], 'SERVICE_GRAPHQL_SERVER_PORT / --server-port: expected an integer from 0 to 65535, got "70000"'],
    [{}, ['--no-such-flag', 'x'], 'unknown flag "--no-such-flag"'],
    [
      { SERVICE_GRAPHQL_ENABLED_LOG_TYPES: 'http-log, loud' },
      [],
      'SERVICE_GRAPHQL_ENABLED_LOG_TYPES / --enabled-log-types: expected some of startup, http-log, webhook-log, websocket-log, query-log, execution-log, livequery-poller-log, action-handler-log, jwk-refresh-log, event-trigger, scheduled-trigger, health-check-log, metadata, unstructured, got "http-log, loud"',
    ],
  ])('stops the engine with a clear JSON log line (%o %o)', async (env, args, message) => {
    const { code, lines } = await boot(env, args);
    expect(code).not.toBe(0);
    expect(code).not.toBeNull();
    expect(lines).toEqual([expect.objectContaining({ level: 'error', type: 'unstructured', detail: { message: `invalid configuration: ${message}` } })]);
  });
});
