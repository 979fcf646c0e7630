/**
 * The console's frame (docs/console.md): served by the engine at /console when
 * SERVICE_GRAPHQL_ENABLE_CONSOLE is on, hashed assets cached for a year and index.html never,
 * gzip when asked; sign-in with the admin secret kept for the browser session; the sections'
 * navigation; a console that is not built is a configuration error.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONSOLE_SECRET, expectedFailure, openConsole, signIn, type ConsoleSetting } from '../support/console.js';
import { startEngine } from '../support/engine.js';

let s: ConsoleSetting;

beforeAll(async () => {
  // The production build, as users get it.
  s = await openConsole('shell', { SERVICE_GRAPHQL_CONSOLE_ASSETS_DIR: '' });
});

afterAll(async () => {
  await s?.close();
});

describe('serving', () => {
  it('serves index.html uncached, its hashed assets cached for a year, gzipped when asked', async () => {
    const page = await fetch(`${s.engine.url}/console/data/default`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('cache-control')).toBe('no-cache');
    const html = await page.text();
    const script = /src="(\/console\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    const asset = await fetch(s.engine.url + script!, { headers: { 'accept-encoding': 'gzip' } });
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(asset.headers.get('content-encoding')).toBe('gzip');
    expect(asset.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect((await fetch(`${s.engine.url}/console/assets/missing-0000.js`)).status).toBe(404);
  });

  it('redirects / to the console', async () => {
    const res = await fetch(`${s.engine.url}/`, { redirect: 'manual' });
    expect(res.status).toBe(307);
    expect(res.headers.get('location')).toBe('/console');
  });

  it('answers 404 at /console when the console is off (the default)', async () => {
    const off = await startEngine({ SERVICE_GRAPHQL_DATABASE_URL: s.db.url, SERVICE_GRAPHQL_ADMIN_SECRET: CONSOLE_SECRET });
    try {
      expect((await fetch(`${off.url}/console`)).status).toBe(404);
    } finally {
      await off.stop();
    }
  });

  it("names the console's folder in /v1alpha1/config when another build is served", async () => {
    const dir = fileURLToPath(new URL('../../dist/console/', import.meta.url));
    const other = await startEngine({ SERVICE_GRAPHQL_DATABASE_URL: s.db.url, SERVICE_GRAPHQL_ADMIN_SECRET: CONSOLE_SECRET, SERVICE_GRAPHQL_ENABLE_CONSOLE: 'true', SERVICE_GRAPHQL_CONSOLE_ASSETS_DIR: dir, SERVICE_GRAPHQL_ENABLED_APIS: 'metadata,graphql,config,metrics' });
    try {
      const config = await (await fetch(`${other.url}/v1alpha1/config`, { headers: { 'x-service-admin-secret': CONSOLE_SECRET } })).json();
      expect(config).toMatchObject({ console_assets_dir: dir, is_prometheus_metrics_enabled: true });
      expect((await fetch(`${other.url}/console`)).status).toBe(200);
    } finally {
      await other.stop();
    }
  });

  it('refuses to start when the console is on and its files are not there', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'console-'));
    const failed = startEngine({ SERVICE_GRAPHQL_DATABASE_URL: s.db.url, SERVICE_GRAPHQL_ENABLE_CONSOLE: 'true', SERVICE_GRAPHQL_CONSOLE_ASSETS_DIR: empty });
    await expect(failed).rejects.toThrow(/exited with code 2[\s\S]*console's files are not in .*npm run build/);
  });
});

describe('in the browser', () => {
  it('asks for the admin secret, refuses a wrong one, keeps the right one for the session', async () => {
    const { page } = s;
    await page.goto(`${s.engine.url}/console`);
    await s.browser.shot('sign-in');
    // The page asks before it calls: nothing was refused yet.
    expect(s.browser.errors).toEqual([]);
    await page.getByLabel('Admin secret').fill('wrong');
    await page.getByRole('button', { name: 'Enter console' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('not accepted');
    await s.browser.shot('sign-in-refused');
    await signIn(s);
    expect(new URL(page.url()).pathname).toBe('/console/api');
    // Kept for the browser session (no expiry), sent with the console's files only, never with an API call.
    const [kept] = await s.browser.context.cookies(`${s.engine.url}/console/api`);
    expect(kept).toMatchObject({ name: 'service-console-admin-secret', value: CONSOLE_SECRET, path: '/console', expires: -1, sameSite: 'Strict' });
    expect(await s.browser.context.cookies(`${s.engine.url}/v1/metadata`)).toEqual([]);
    await page.reload();
    await expect.poll(() => page.getByRole('navigation', { name: 'Sections' }).isVisible()).toBe(true);
    // The wrong secret's refused call logged its 401 in the browser: the answer the test asked for.
    await expectedFailure(s, 401);
  });

  it('moves between the sections', async () => {
    const { page } = s;
    for (const name of ['Data', 'Actions', 'Remote Schemas', 'Events', 'Settings', 'API']) {
      await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name, exact: true }).click();
      await expect.poll(() => page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name, exact: true }).getAttribute('aria-current')).toBe('page');
      await s.browser.shot(name);
    }
  });

  it('goes straight in when the engine has no admin secret', async () => {
    const open = await startEngine({ SERVICE_GRAPHQL_DATABASE_URL: s.db.url, SERVICE_GRAPHQL_ENABLE_CONSOLE: 'true' });
    const page = await s.browser.context.newPage();
    try {
      await page.goto(`${open.url}/console/data`);
      await expect.poll(() => page.getByRole('navigation', { name: 'Sections' }).isVisible()).toBe(true);
      expect(await page.getByLabel('Admin secret').count()).toBe(0);
    } finally {
      await page.close();
      await open.stop();
    }
  });

  it('signs out', async () => {
    const { page } = s;
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect.poll(() => page.getByLabel('Admin secret').isVisible()).toBe(true);
  });
});
