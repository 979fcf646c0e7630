/**
 * `deploy`, what a CI job runs: the pending migrations of the project's database, then the
 * project's metadata (`metadata apply`, given to `registerDeployCommand`), then a metadata reload, as the
 * well-known tool's deploy does; the first step that fails stops it with its exit code.
 */
import type { Command } from 'commander';
import { action, type CommandContext } from '../command.js';
import { applyMigrations, reportApplied } from '../migrations/apply.js';
import { reloadMetadata } from './metadata-server.js';

/** Applies the project's metadata directory to the engine. */
export type MetadataApplyStep = (ctx: CommandContext) => Promise<unknown>;

export function registerDeployCommand(program: Command, applyMetadata: MetadataApplyStep): void {
  program
    .command('deploy')
    .description('apply the pending migrations, then the metadata, then reload the metadata')
    .action(
      action(async (ctx) => {
        ctx.output.info('applying migrations');
        const steps = await applyMigrations(ctx, {});
        await applyMetadata(ctx);
        ctx.output.info('reloading metadata');
        await reloadMetadata(ctx);
        reportApplied(ctx, steps);
      }),
    );
}
