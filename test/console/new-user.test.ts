/**
 * A new user's first session in the console (docs/console.md), in one browser, each step
 * building on the last: sign in with the admin secret; create two tables in the SQL editor and
 * track them; add the relationship their foreign key suggests; give role `user` a select
 * permission whose row filter compares with X-Service-User-Id; insert rows in the data browser;
 * run a query in the explorer as that user and see only its rows; run a subscription and see it
 * change when a row is inserted in the data browser of a second tab; create an event trigger and
 * see its delivery in the logs; export the metadata, clear it and import the file again. Every
 * page is saved as a screenshot (test-artifacts/console/new-user/).
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ActionHandler } from '../support/action-handler.js';
import { exported as exportedFrom, graphqlAs, openConsole, ownRowsSelect, signIn, type ConsoleSetting } from '../support/console.js';
import { actAs, responseJson as answer, setQuery } from '../support/graphiql.js';

let s: ConsoleSetting;
const hook = new ActionHandler({ '/author-created': () => ({ body: { ok: true } }) });

beforeAll(async () => {
  await hook.start();
  // Events are fetched every 200 ms: the delivery shows up while the test looks.
  s = await openConsole('new-user', { SERVICE_GRAPHQL_EVENTS_FETCH_INTERVAL: '200' });
});

afterAll(async () => {
  await s?.close();
  await hook.stop();
});

const exported = () => exportedFrom(s);
const sections = (page: Page) => page.getByRole('navigation', { name: 'Sections' });
const dataNav = (page: Page) => page.getByRole('navigation', { name: 'Data' });
const tableTab = (page: Page, name: string) => page.getByRole('navigation', { name: 'Table' }).getByRole('link', { name });

/** Inserts a row through the data browser's "Insert row" tab of `table`, field by field. */
async function insertRow(page: Page, table: string, values: Record<string, string>): Promise<void> {
  await sections(page).getByRole('link', { name: 'Data', exact: true }).click();
  await dataNav(page).getByRole('link', { name: table, exact: true }).click();
  await tableTab(page, 'Insert row').click();
  for (const [column, value] of Object.entries(values)) await page.getByLabel(column, { exact: true }).fill(value);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect.poll(() => page.getByRole('region', { name: 'Inserted row' }).getByRole('cell').allTextContents()).toEqual(expect.arrayContaining(Object.values(values)));
}

describe("a new user's first session", () => {
  it('signs in with the admin secret', async () => {
    await s.page.goto(`${s.engine.url}/`);
    await s.browser.shot('sign-in');
    await signIn(s);
    expect(new URL(s.page.url()).pathname).toBe('/console/api');
    await s.browser.shot('signed-in');
  });

  it('creates two tables in the SQL editor and tracks them', async () => {
    const { page } = s;
    await sections(page).getByRole('link', { name: 'Data', exact: true }).click();
    await dataNav(page).getByRole('link', { name: 'SQL', exact: true }).click();
    await page.getByLabel('SQL', { exact: true }).fill(
      'CREATE TABLE author (id serial PRIMARY KEY, name text NOT NULL);\nCREATE TABLE article (id serial PRIMARY KEY, title text NOT NULL, author_id int NOT NULL REFERENCES author (id));',
    );
    await page.getByLabel('Track this').check();
    await s.browser.shot('sql-written');
    await page.getByRole('button', { name: 'Run!' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toContain('Tracked: public.author, public.article.');
    await expect.poll(() => dataNav(page).getByRole('link', { name: 'article', exact: true }).isVisible()).toBe(true);
    await s.browser.shot('sql-tracked');
    expect((await exported()).sources[0].tables.map((t: { table: { name: string } }) => t.table.name)).toEqual(['author', 'article']);
  });

  it('adds the relationship the foreign key suggests', async () => {
    const { page } = s;
    await dataNav(page).getByRole('link', { name: 'article', exact: true }).click();
    await tableTab(page, 'Relationships').click();
    const suggested = page.getByRole('region', { name: 'Suggested relationships' });
    await expect.poll(() => suggested.textContent()).toContain('article → author (author_id → id)');
    await s.browser.shot('relationship-suggested');
    await suggested.getByRole('button', { name: 'Add author' }).click();
    await expect.poll(() => page.getByRole('table', { name: 'Relationships' }).textContent()).toContain('foreign key on author_id');
    await s.browser.shot('relationship-added');
    const article = (await exported()).sources[0].tables.find((t: { table: { name: string } }) => t.table.name === 'article');
    expect(article.object_relationships).toEqual([{ name: 'author', using: { foreign_key_constraint_on: 'author_id' } }]);
  });

  it('gives role user a select permission filtered on X-Service-User-Id', async () => {
    const { page } = s;
    await tableTab(page, 'Permissions').click();
    await ownRowsSelect(page, 'user', 'author_id');
    const columns = page.getByRole('group', { name: 'Column select permissions' });
    for (const c of ['id', 'title', 'author_id']) await columns.getByLabel(c, { exact: true }).check();
    await s.browser.shot('permission-built');
    await page.getByRole('button', { name: 'Save permissions' }).click();
    await expect.poll(() => page.locator('.notice').textContent()).toBe('Saved the select permission of user.');
    await s.browser.shot('permission-saved');
  });

  it('inserts rows in the data browser', async () => {
    const { page } = s;
    await insertRow(page, 'author', { name: 'Ann' });
    await s.browser.shot('author-inserted');
    await insertRow(page, 'author', { name: 'Bob' });
    await insertRow(page, 'article', { title: 'by Ann', author_id: '1' });
    await insertRow(page, 'article', { title: 'by Bob', author_id: '2' });
    await s.browser.shot('article-inserted');
    await tableTab(page, 'Browse rows').click();
    await expect.poll(() => page.getByRole('table').first().textContent()).toContain('by Bob');
    await s.browser.shot('articles-browsed');
  });

  it('runs a query in the explorer as that user and sees only its rows', async () => {
    const { page } = s;
    await sections(page).getByRole('link', { name: 'API', exact: true }).click();
    // The explorer reads the schema again as the headers say, once they stop changing.
    await actAs(page, 'user', '1');
    await setQuery(page, 'query MyArticles { article(order_by: {id: asc}) { title author_id } }');
    await page.getByRole('button', { name: /^Execute query/ }).click();
    await expect.poll(() => answer(page)).toEqual({ data: { article: [{ title: 'by Ann', author_id: 1 }] } });
    await s.browser.shot('explorer-as-user');
  });

  it('runs a subscription that changes when a row is inserted in the data browser of another tab', async () => {
    const { page } = s;
    await setQuery(page, 'subscription LiveArticles { article(order_by: {id: asc}) { title } }');
    await page.getByRole('button', { name: /^Execute query/ }).click();
    await expect.poll(() => answer(page)).toEqual({ data: { article: [{ title: 'by Ann' }] } });
    await s.browser.shot('subscription-started');
    const other = await s.browser.context.newPage();
    try {
      await other.goto(`${s.engine.url}/console/data`);
      await insertRow(other, 'article', { title: 'Ann again', author_id: '1' });
    } finally {
      await other.close();
    }
    await expect.poll(() => answer(page)).toEqual({ data: { article: [{ title: 'by Ann' }, { title: 'Ann again' }] } });
    await s.browser.shot('subscription-updated');
    await page.getByRole('button', { name: /^Stop/ }).click();
  });

  it('creates an event trigger and sees its delivery in the logs', async () => {
    const { page } = s;
    await sections(page).getByRole('link', { name: 'Events', exact: true }).click();
    await page.getByRole('navigation', { name: 'Events' }).getByRole('link', { name: 'Create event trigger' }).click();
    await page.getByLabel('Trigger name', { exact: true }).fill('author_created');
    await page.getByLabel('Table', { exact: true }).selectOption('public.author');
    await page.getByLabel('Insert', { exact: true }).check();
    await page.getByLabel('Webhook URL', { exact: true }).fill(hook.url('/author-created'));
    await s.browser.shot('trigger-form');
    await page.getByRole('button', { name: 'Create event trigger' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'author_created' }).isVisible()).toBe(true);
    await page.getByLabel('Auto-refresh', { exact: true }).check();
    const other = await s.browser.context.newPage();
    try {
      await other.goto(`${s.engine.url}/console/data`);
      await insertRow(other, 'author', { name: 'Cy' });
    } finally {
      await other.close();
    }
    const processed = page.getByRole('table', { name: 'Processed events' });
    await expect.poll(async () => ((await processed.count()) > 0 ? processed.innerText() : '')).toContain('delivered');
    await processed.getByRole('row').nth(1).getByText('Invocations', { exact: true }).click();
    await expect.poll(() => page.getByRole('table', { name: /^Invocations of event / }).innerText()).toContain('200');
    await s.browser.shot('trigger-delivered');
    expect(hook.callsTo('/author-created').map((c) => c.body.event.data.new.name)).toEqual(['Cy']);
  });

  it('exports the metadata, clears it and imports the file again', async () => {
    const { page } = s;
    await sections(page).getByRole('link', { name: 'Settings', exact: true }).click();
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Metadata actions' }).click();
    const before = await exported();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export metadata' }).click()]);
    const file = readFileSync(await download.path());
    expect(JSON.parse(file.toString('utf8'))).toEqual(before);
    await s.browser.shot('exported');
    await page.getByRole('button', { name: 'Clear metadata' }).click();
    await page.getByRole('group', { name: 'Confirm: Clear metadata' }).getByRole('button', { name: 'Yes, clear metadata' }).click();
    await expect.poll(async () => (await exported()).sources?.[0]?.tables ?? []).toEqual([]);
    await s.browser.shot('cleared');
    await page.getByLabel('Metadata file to import').setInputFiles({ name: 'metadata.json', mimeType: 'application/json', buffer: file });
    await expect.poll(() => page.getByRole('status').first().textContent()).toBe('Metadata imported from metadata.json.');
    await s.browser.shot('imported');
    expect(await exported()).toEqual(before);
    // What the metadata says works again: the user's filtered query.
    expect(await graphqlAs(s, '{ article(order_by: {id: asc}) { title } }', 'user', { 'x-service-user-id': '1' })).toEqual({ data: { article: [{ title: 'by Ann' }, { title: 'Ann again' }] } });
  });
});
