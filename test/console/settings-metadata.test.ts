/**
 * The Settings section's metadata pages (docs/console.md, "Settings"): export downloads what
 * export_metadata answers, import puts it back (and a refused file changes nothing), reload
 * turns a table dropped behind the engine's back into an inconsistent object the status page
 * drops, the About page shows the version and configuration, and clear empties the metadata.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, expectedFailure, exported, openConsole, signIn, type ConsoleSetting } from '../support/console.js';

let s: ConsoleSetting;

const tablesOf = (m: { sources: { tables: { table: { name: string } }[] }[] }) => m.sources.flatMap((src) => src.tables.map((t) => t.table.name)).sort();

beforeAll(async () => {
  s = await openConsole('settings-metadata');
  await s.db.sql('CREATE TABLE author (id serial PRIMARY KEY, name text NOT NULL); CREATE TABLE article (id serial PRIMARY KEY, title text NOT NULL)');
  expect((await s.engine.metadata({ type: 'pg_track_table', args: { source: 'default', table: 'author' } }, ADMIN)).status).toBe(200);
  await signIn(s, '/console/settings');
});

afterAll(async () => {
  await s?.close();
});

describe('metadata actions', () => {
  let file = '';

  it('shows the resource version and exports the metadata as metadata.json', async () => {
    const { page } = s;
    const { resource_version } = (await s.engine.metadata({ type: 'export_metadata', version: 2, args: {} }, ADMIN)).body;
    await expect.poll(() => page.getByRole('heading', { name: 'Metadata actions' }).isVisible()).toBe(true);
    await expect.poll(() => page.getByText('Resource version:').textContent()).toBe(`Resource version: ${resource_version}`);
    await s.browser.shot('metadata-actions');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export metadata' }).click()]);
    expect(download.suggestedFilename()).toBe('metadata.json');
    file = await download.path();
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(await exported(s));
  });

  it('imports the downloaded file back over a changed metadata', async () => {
    const { page } = s;
    const before = await exported(s);
    expect((await s.engine.metadata({ type: 'pg_track_table', args: { source: 'default', table: 'article' } }, ADMIN)).status).toBe(200);
    expect(tablesOf(await exported(s))).toEqual(['article', 'author']);
    await page.getByLabel('Metadata file to import').setInputFiles({ name: 'metadata.json', mimeType: 'application/json', buffer: readFileSync(file) });
    await expect.poll(() => page.getByRole('status').first().textContent()).toBe('Metadata imported from metadata.json.');
    await s.browser.shot('imported');
    expect(await exported(s)).toEqual(before);
  });

  it("shows the engine's error for a file it refuses, and changes nothing", async () => {
    const { page } = s;
    const before = await exported(s);
    const broken = { ...before, sources: [{ ...before.sources[0], tables: [{ table: { schema: 'public', name: 'author' }, select_permissions: [{ role: 'user', permission: { columns: ['nope'], filter: {} } }] }] }] };
    await page.getByLabel('Metadata file to import').setInputFiles({ name: 'broken.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(broken)) });
    const alert = page.getByRole('alert');
    await expect.poll(() => alert.textContent()).toBe('cannot continue due to inconsistent metadata (unexpected at $.args)');
    const objects = page.getByRole('table', { name: 'Objects the imported metadata makes inconsistent' });
    expect(await objects.getByRole('row').nth(1).textContent()).toMatch(/nope/);
    await s.browser.shot('import-refused');
    expect(await exported(s)).toEqual(before);
    // The refused import's 400 is logged by the browser: the failure this test asked for.
    await expectedFailure(s, 400);
    await page.getByLabel('Metadata file to import').setInputFiles({ name: 'text.json', mimeType: 'application/json', buffer: Buffer.from('not json') });
    await expect.poll(() => alert.textContent()).toContain('text.json is not valid JSON');
    await s.browser.shot('import-not-json');
    expect(await exported(s)).toEqual(before);
  });
});

describe('inconsistent metadata', () => {
  it('reloads after a table is dropped in the database, then drops the inconsistent table', async () => {
    const { page } = s;
    await s.db.sql('DROP TABLE author');
    await page.getByLabel('Reload all sources').check();
    await page.getByLabel('Reload all remote schemas').check();
    await page.getByRole('button', { name: 'Reload metadata' }).click();
    await expect.poll(() => page.getByRole('status').first().textContent()).toContain('Metadata reloaded, with inconsistent objects');
    const navLink = page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: /^Inconsistent metadata/ });
    await expect.poll(() => navLink.textContent()).toBe('Inconsistent metadata (1)');
    await s.browser.shot('reloaded-inconsistent');
    await page.getByRole('status').getByRole('link', { name: 'Inconsistent metadata' }).click();
    const table = page.getByRole('table', { name: 'Inconsistent objects' });
    await expect.poll(() => table.getByRole('row').count()).toBe(2);
    const row = table.getByRole('row').nth(1);
    expect(await row.getByRole('cell').first().textContent()).toBe('table');
    expect(await row.textContent()).toContain('author');
    await row.getByText('Definition').click();
    await expect.poll(() => row.locator('pre').isVisible()).toBe(true);
    await s.browser.shot('inconsistent-objects');
    await page.getByRole('button', { name: 'Drop inconsistent objects' }).click();
    await s.browser.shot('drop-confirm');
    await page.getByRole('group', { name: 'Confirm: Drop inconsistent objects' }).getByRole('button', { name: 'Yes, drop inconsistent objects' }).click();
    await expect.poll(() => page.getByRole('status').first().textContent()).toBe('The metadata is consistent.');
    await expect.poll(() => navLink.textContent()).toBe('Inconsistent metadata');
    await s.browser.shot('consistent');
    const status = (await s.engine.metadata({ type: 'get_inconsistent_metadata', args: {} }, ADMIN)).body;
    expect(status.is_consistent).toBe(true);
    expect(tablesOf(await exported(s))).toEqual([]);
  });
});

describe('about and clear', () => {
  it("shows the engine's version and configuration", async () => {
    const { page } = s;
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'About' }).click();
    const { version } = (await (await fetch(`${s.engine.url}/v1/version`)).json()) as { version: string };
    await expect.poll(() => page.getByText('Engine version:').textContent()).toBe(`Engine version: ${version}`);
    const config = page.getByRole('table', { name: 'Configuration' });
    await expect.poll(() => config.getByRole('row', { name: /is_admin_secret_set/ }).textContent()).toBe('is_admin_secret_settrue');
    await s.browser.shot('about');
  });

  it('clears the metadata once confirmed', async () => {
    const { page } = s;
    await s.db.sql('CREATE TABLE tag (id serial PRIMARY KEY)');
    expect((await s.engine.metadata({ type: 'pg_track_table', args: { source: 'default', table: 'tag' } }, ADMIN)).status).toBe(200);
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Metadata actions' }).click();
    await page.getByRole('button', { name: 'Clear metadata' }).click();
    const confirm = page.getByRole('group', { name: 'Confirm: Clear metadata' });
    await s.browser.shot('clear-confirm');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    expect(tablesOf(await exported(s))).toEqual(['tag']);
    // By keyboard: cancelling gave the focus back to the button, and the question takes it.
    const focused = () => page.evaluate('[document.activeElement?.closest("[role=group]")?.getAttribute("aria-label") ?? "", document.activeElement?.textContent]');
    await expect.poll(focused).toEqual(['', 'Clear metadata']);
    await page.keyboard.press('Enter');
    await expect.poll(focused).toEqual(['Confirm: Clear metadata', 'Yes, clear metadata']);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('status').first().textContent()).toBe('Metadata cleared.');
    await s.browser.shot('cleared');
    expect(tablesOf(await exported(s))).toEqual([]);
  });
});
