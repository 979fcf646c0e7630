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
