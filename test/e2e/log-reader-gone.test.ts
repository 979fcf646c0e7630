/**
 * The engine logs JSON lines on stdout; whoever reads them (a pipe to a log shipper) may go
 * away. Lines are then lost, but the engine keeps serving (it used to die of EPIPE).
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../support/db.js';

const MAIN = fileURLToPath(new URL('../../dist/main.js', import.meta.url));
let db: TestDatabase;

beforeAll(async () => {
  db = await freshDatabase();
});
afterAll(() => db.drop());

describe('a closed log stream', () => {
  it('loses the log lines, not the engine', async () => {
    const child = spawn(process.execPath, [MAIN], {
      env: { PATH: process.env.PATH ?? '', SERVICE_GRAPHQL_DATABASE_URL: db.url, SERVICE_GRAPHQL_SERVER_PORT: '0', SERVICE_GRAPHQL_SERVER_HOST: '127.0.0.1', SERVICE_GRAPHQL_LOG_LEVEL: 'debug' },
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    try {
      const port = await new Promise<number>((resolve, reject) => {
        child.once('exit', (code) => reject(new Error(`engine exited with code ${code}`)));
        createInterface({ input: child.stdout! }).on('line', (line) => {
          const entry = JSON.parse(line) as { detail: { message?: string; port?: number } };
          if (entry.detail.message === 'server ready') resolve(entry.detail.port!);
        });
      });
      child.stdout!.destroy();
      // Debug lines for each compiled plan, written to the closed pipe.
      for (let i = 0; i < 20; i++) {
        const res = await fetch(`http://127.0.0.1:${port}/v1/graphql`, { method: 'POST', body: JSON.stringify({ query: `{ a${i}: __typename }` }) });
        expect(await res.json()).toEqual({ data: { [`a${i}`]: 'query_root' } });
      }
      expect(child.exitCode).toBeNull();
    } finally {
      child.kill();
    }
  });
});
