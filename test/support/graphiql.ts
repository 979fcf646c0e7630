/** Driving the console's GraphiQL (the API section) in a test's page. */
import { expect } from 'vitest';
import type { Page } from 'playwright-core';

/**
 * Replaces the query editor's text as typing it would (without the editor's bracket closing),
 * then waits for GraphiQL to have read the operation's name (its tab's title): it runs the
 * operation of that name.
 */
export async function setQuery(page: Page, text: string): Promise<void> {
  await page.locator('.graphiql-query-editor .CodeMirror').click();
  await page.keyboard.press('Control+A');
  await page.keyboard.insertText(text);
  const name = /^\w+ (\w+)/.exec(text)![1]!;
  await expect.poll(() => page.getByRole('tab', { selected: true }).locator('.graphiql-tab-button').textContent()).toBe(name);
}

/** The response pane's text. */
export const responseText = (page: Page): Promise<string> =>
  page.locator('.graphiql-response').evaluate((el) => (el.querySelector('.CodeMirror') as unknown as { CodeMirror: { getValue(): string } }).CodeMirror.getValue());

/** The response pane's JSON (null while empty). */
export const responseJson = async (page: Page): Promise<unknown> => JSON.parse((await responseText(page)) || 'null');

/** Runs the operation in the editor, or stops the subscription that runs. */
export const runOrStop = (page: Page) => page.getByRole('button', { name: /^(Execute query|Stop)/ }).click();

/**
 * Sets the request headers' role and `x-service-user-id` session variable (the first), then waits
 * for the explorer to read the schema again with them (once they stop changing).
 */
export async function actAs(page: Page, role: string, userId: string): Promise<void> {
  const introspected = page.waitForRequest((r) => r.url().endsWith('/v1/graphql') && r.headers()['x-service-role'] === role && r.headers()['x-service-user-id'] === userId);
  await page.getByLabel('Role', { exact: true }).fill(role);
  await page.getByRole('button', { name: 'Add session variable' }).click();
  await page.getByLabel('Session variable 1 name').fill('x-service-user-id');
  await page.getByLabel('Session variable 1 value').fill(userId);
  await introspected;
}
