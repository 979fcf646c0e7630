/**
 * One PostgreSQL server for the whole run: `SERVICE_TEST_DATABASE_URL` when set,
 * else an embedded one kept in `.service-test/` of the project (reused between runs).
 */
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres, type EmbeddedServer } from '../../src/db/embedded.js';

const DATA_DIR = fileURLToPath(new URL('../../.service-test', import.meta.url));

let embedded: EmbeddedServer | undefined;

export async function setup(project: TestProject): Promise<void> {
  let url = process.env.SERVICE_TEST_DATABASE_URL;
  if (!url) {
    try {
      // Says where the data lives: it moves out of a folder user postgres cannot reach.
      embedded = await startEmbeddedPostgres(DATA_DIR, (message, fields) => console.log(message, JSON.stringify(fields ?? {})));
    } catch (e) {
      // A thrown error would be reported with a stack trace: one line says it all.
      console.error(`${(e as Error).message}; set SERVICE_TEST_DATABASE_URL to test against another PostgreSQL server`);
      process.exit(1);
    }
    url = embedded.url;
  }
  project.provide('databaseUrl', url);
}

export async function teardown(): Promise<void> {
  await embedded?.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
  }
}
