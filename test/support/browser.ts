/**
 * A real headless Chromium (Debian's `chromium`, driven by playwright-core) for the console's
 * tests. A machine without it fails the test saying what to install (`.ci/run` installs it):
 * a browser test never skips. Each `ConsoleBrowser` keeps what the page logged: a console error
 * or an uncaught exception fails the test at `close()`; `shot()` saves a screenshot of the page
 * under `test-artifacts/console/<test>/`.
 */
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

const CHROMIUM = process.env.SERVICE_TEST_CHROMIUM ?? '/usr/bin/chromium';
const ARTIFACTS = fileURLToPath(new URL('../../test-artifacts/console/', import.meta.url));

export interface ConsoleBrowser {
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** Saves a screenshot of the page as `<n>-<name>.png`. */
  shot(name: string): Promise<void>;
  /** What the page logged as errors (console errors, uncaught exceptions, failed requests). */
  errors: string[];
  /** Closes the browser; throws when the page logged an error. */
  close(): Promise<void>;
}

/** `test`: the folder of its screenshots (a file-name-safe name of the test). */
export async function openConsoleBrowser(test: string): Promise<ConsoleBrowser> {
  if (!existsSync(CHROMIUM)) throw new Error(`the console's tests need Chromium at ${CHROMIUM}: install Debian's chromium (.ci/run does) or set SERVICE_TEST_CHROMIUM`);
  // As root (CI) Chromium needs --no-sandbox.
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console error: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`uncaught: ${e.message}`));
  const dir = `${ARTIFACTS}${test.replace(/[^a-z0-9-]+/gi, '-')}/`;
  // Only this run's screenshots.
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  let n = 0;
  return {
    browser,
    context,
    page,
    errors,
    shot: async (name) => {
      n += 1;
      await page.screenshot({ path: `${dir}${String(n).padStart(2, '0')}-${name.replace(/[^a-z0-9-]+/gi, '-')}.png`, fullPage: true });
    },
    close: async () => {
      await browser.close();
      if (errors.length > 0) throw new Error(`the console logged errors:\n${errors.join('\n')}`);
    },
  };
}
