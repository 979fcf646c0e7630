/**
 * `console`: opens the console the engine serves (`<endpoint>/console`) in the browser, as the
 * well-known tool's command opens its own. An engine that serves none (the console is off unless
 * `SERVICE_GRAPHQL_ENABLE_CONSOLE=true`) is a failure that says how to turn it on. `--no-browser`
 * only prints the address.
 */
import { spawn } from 'node:child_process';
import type { Command } from 'commander';
import { action, CliError, EXIT } from '../command.js';

/** The program that opens a URL in the desktop's browser, per platform. */
const OPENER: Record<string, string> = { darwin: 'open', win32: 'explorer', linux: 'xdg-open' };

export function registerConsoleCommand(program: Command): void {
  program
    .command('console')
    .description('open the console the engine serves in the browser')
    .option('--no-browser', 'print its address without opening a browser')
    .action(
      action(async ({ project, output }, options: { browser: boolean }) => {
        const url = `${project.endpoint}/console`;
        let status: number;
        try {
          status = (await fetch(url, { redirect: 'manual' })).status;
        } catch (e) {
          throw new CliError(`cannot reach the engine at ${project.endpoint}: ${(e as { cause?: { message?: string } }).cause?.message ?? (e as Error).message}`, EXIT.unreachable);
        }
        if (status === 404) throw new CliError(`the engine at ${project.endpoint} serves no console: start it with SERVICE_GRAPHQL_ENABLE_CONSOLE=true`);
        if (status >= 400) throw new CliError(`${url} answered ${status}`);
        const opener = OPENER[process.platform];
        if (options.browser && opener) spawn(opener, [url], { detached: true, stdio: 'ignore' }).on('error', () => output.warn(`could not start ${opener}: open ${url} yourself`)).unref();
        output.result({ url }, output.success(`console at ${url}`));
      }),
    );
}
