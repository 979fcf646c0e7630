/**
 * A console test's setting: a fresh database, an engine serving the console with an admin
 * secret, and a headless Chromium signed in to it (`signIn`).
 */
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { freshDatabase, type TestDatabase } from './db.js';
import { startEngine, type Engine } from './engine.js';
import { openConsoleBrowser, type ConsoleBrowser } from './browser.js';
import { fileURLToPath } from 'node:url';

/**
 * The console built with React's development build (`npm test` builds it first): its warnings
 * (a missing key, a bad hook) reach the browser's log and fail the test. The production build is
 * what users get; `shell.test.ts` serves that one.
 */
const DEVELOPMENT_BUILD = fileURLToPath(new URL('../../dist/console-dev/', import.meta.url));

export const CONSOLE_SECRET = 'console-test-secret';
export const ADMIN = { 'x-service-admin-secret': CONSOLE_SECRET };

export interface ConsoleSetting {
  db: TestDatabase;
  engine: Engine;
  browser: ConsoleBrowser;
  page: Page;
  /** Stops the browser (failing on logged errors), the engine and drops the database. */
  close(): Promise<void>;
}

/** `env`: more of the engine's settings (`SERVICE_GRAPHQL_CONSOLE_ASSETS_DIR: ''` serves the production build). */
export async function openConsole(test: string, env: Record<string, string> = {}): Promise<ConsoleSetting> {
  const db = await freshDatabase();
  const engine = await startEngine({ SERVICE_GRAPHQL_DATABASE_URL: db.url, SERVICE_GRAPHQL_ADMIN_SECRET: CONSOLE_SECRET, SERVICE_GRAPHQL_ENABLE_CONSOLE: 'true', SERVICE_GRAPHQL_CONSOLE_ASSETS_DIR: DEVELOPMENT_BUILD, ...env });
  const browser = await openConsoleBrowser(test);
  return {
    db,
    engine,
    browser,
    page: browser.page,
    close: async () => {
      try {
        await browser.close();
      } finally {
        await engine.stop();
        await db.drop();
      }
    },
  };
}

/** Opens `path` under the console and signs in with the admin secret. */
export async function signIn(s: ConsoleSetting, path = '/console'): Promise<void> {
  await s.page.goto(s.engine.url + path);
  await s.page.getByLabel('Admin secret').fill(CONSOLE_SECRET);
  await s.page.getByRole('button', { name: 'Enter console' }).click();
  // Playwright's wait, not expect.poll: a file may sign in from beforeAll.
  await s.page.getByRole('navigation', { name: 'Sections' }).waitFor({ timeout: 10_000 });
}

/** The engine's metadata as `export_metadata` answers it. */
export const exported = async (s: ConsoleSetting) => (await s.engine.metadata({ type: 'export_metadata', args: {} }, ADMIN)).body;

/**
 * Forgets the browser's log lines of the `count` requests that failed with `status` on purpose,
 * keeping anything else it logged. It waits for them: Chromium logs a failed request's line after
 * the page may already show the answer, and a line that came after the forgetting failed the file.
 */
export async function expectedFailure(s: ConsoleSetting, status: number, count = 1): Promise<void> {
  const failed = (e: string) => e.includes(`status of ${status}`);
  await expect.poll(() => s.browser.errors.filter(failed).length).toBeGreaterThanOrEqual(count);
  s.browser.errors.splice(0, s.browser.errors.length, ...s.browser.errors.filter((e) => !failed(e)));
}

/** A GraphQL request's answer (with the admin secret), as `role` when one is given, with more session variables in `session`. */
export const graphqlAs = async (s: ConsoleSetting, query: string, role?: string, session: Record<string, string> = {}) =>
  (await s.engine.post('/v1/graphql', { query }, { ...ADMIN, ...(role ? { 'x-service-role': role } : {}), ...session })).body;

/**
 * On a table's Permissions tab: opens `role`'s select permission (a new role) and builds its row
 * check `{column: {_eq: X-Service-User-Id}}` with the builder. Returns the row check's group.
 */
export async function ownRowsSelect(page: Page, role: string, column: string) {
  await page.getByLabel('New role').fill(role);
  await page.getByRole('button', { name: `Edit select permission of ${role}` }).click();
  const rows = page.getByRole('group', { name: 'Row select permissions' });
  await rows.getByRole('radio', { name: 'With custom check' }).check();
  await rows.getByLabel('Add condition').selectOption(column);
  await rows.getByRole('button', { name: `Use X-Service-User-Id as value of ${column}` }).click();
  return rows;
}
