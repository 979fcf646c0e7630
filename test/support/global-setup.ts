/**
 * One PostgreSQL server for the whole run: `SERVICE_TEST_DATABASE_URL` when set,
 * else an embedded one kept in `.service-test/` (reused between runs).
 */
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres, type EmbeddedServer } from '../../src/db/embedded.js';

let embedded: EmbeddedServer | undefined;

export async function setup(project: TestProject): Promise<void> {
  let url = process.env.SERVICE_TEST_DATABASE_URL;
  if (!url) {
    embedded = await startEmbeddedPostgres('.service-test', () => {});
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
