/**
 * The `metadata` commands that only ask the engine: `reload` (with the remote schemas and the
 * sources' catalogs read again, as the well-known tool asks), `clear`, and `inconsistency list`
 * and `drop`. Each prints what the engine answered; an inconsistent metadata after a reload is
 * a failure (exit code 1) with the list, as the well-known tool reports it.
 */
import type { Command } from 'commander';
import { action, CliError, type CommandContext } from '../command.js';

export interface InconsistentObject {
  type?: string;
  name?: unknown;
  reason?: string;
  definition?: unknown;
}

interface Inconsistencies {
  is_consistent: boolean;
  inconsistent_objects: InconsistentObject[];
}

export const nameOf = (o: InconsistentObject): string => (typeof o.name === 'string' ? o.name : JSON.stringify(o.name ?? o.definition ?? ''));

/** Reloads the metadata, remote schemas and sources; an inconsistent result is a failure. */
export async function reloadMetadata({ engine }: CommandContext): Promise<unknown> {
  const r = await engine.metadata<{ message?: string; is_consistent?: boolean; inconsistent_objects?: InconsistentObject[] }>('reload_metadata', { reload_remote_schemas: true, reload_sources: true });
  if (r.is_consistent === false) throw new CliError(`the metadata is inconsistent after the reload: ${(r.inconsistent_objects ?? []).map(nameOf).join(', ')}`, undefined, r);
  return r;
}

export function registerMetadataServerCommands(metadata: Command): void {
  metadata
    .command('reload')
    .description('make the engine read its metadata, remote schemas and sources again')
    .action(
      action(async (ctx) => {
        const r = await reloadMetadata(ctx);
        ctx.output.result(r, ctx.output.success('metadata reloaded'));
      }),
    );

  metadata
    .command('clear')
    .description('remove every tracked object from the metadata (the database is not changed)')
    .action(
      action(async ({ engine, output }) => {
        const r = await engine.metadata('clear_metadata', {});
        output.result(r, output.success('metadata cleared'));
      }),
    );

  const inconsistency = metadata.command('inconsistency').alias('ic').description('inconsistent objects of the metadata');
  inconsistency
    .command('list')
    .alias('ls')
    .description('list the inconsistent objects and why')
    .action(
      action(async ({ engine, output }) => {
        const r = await engine.metadata<Inconsistencies>('get_inconsistent_metadata', {});
        const rows = r.inconsistent_objects.map((o) => [o.type ?? '', nameOf(o), o.reason ?? '']);
        output.result(r, r.is_consistent ? output.success('the metadata is consistent') : output.table(['TYPE', 'NAME', 'REASON'], rows));
      }),
    );
  inconsistency
    .command('drop')
    .description('drop the inconsistent objects from the metadata')
    .action(
      action(async ({ engine, output }) => {
        const r = await engine.metadata('drop_inconsistent_metadata', {});
        output.result(r, output.success('inconsistent objects dropped'));
      }),
    );
}
