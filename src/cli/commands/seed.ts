/**
 * `seed create | apply`, as the well-known tool has them: SQL files in `seeds/<database>/`, named
 * `<timestamp>_<name>.sql`, applied in file name order, each through one `run_sql` (one
 * transaction). Seeds are not recorded: applying one twice runs it twice.
 */
import type { Command } from 'commander';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { action, CliError, EXIT } from '../command.js';
import { runSqlFile } from '../migrations/run-sql-file.js';

export function registerSeedCommands(program: Command): void {
  const seed = program.command('seed').alias('sd').description("the database's seed data: SQL files applied on demand");

  seed
    .command('create <name>')
    .description('write a new seed file (seeds/<database>/<timestamp>_<name>.sql)')
    .option('--from-table <table...>', "the rows of these tables (schema.table) as INSERT statements")
    .action(
      action<[string], { fromTable?: string[] }>(async ({ project, engine, output }, o, name) => {
        if (!/^[\w.-]+$/.test(name)) throw new CliError(`seed name "${name}": use letters, digits, "_", "-" and "." only`, EXIT.usage);
        const sql = o.fromTable ? await engine.pgDump(['--data-only', '--column-inserts', ...o.fromTable.flatMap((t) => ['--table', t])], project.database) : '';
        const dir = join(project.seedsDir, project.database);
        mkdirSync(dir, { recursive: true });
        const file = join(dir, `${Date.now()}_${name}.sql`);
        writeFileSync(file, sql);
        output.result({ file }, output.success(`created seed ${file}`));
      }),
    );

  seed
    .command('apply')
    .description('run every seed file in name order, or one (--file)')
    .option('--file <name...>', 'only these files (names in the seeds directory)')
    .action(
      action<[], { file?: string[] }>(async ({ project, engine, output }, o) => {
        const dir = join(project.seedsDir, project.database);
        const all = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.sql')).sort() : [];
        const chosen = o.file ? o.file.map((f) => basename(f)) : all;
        for (const f of chosen) if (!all.includes(f)) throw new CliError(`${join(dir, f)}: no such seed file`, EXIT.usage);
        for (const [i, f] of chosen.entries()) {
          output.info(`[${i + 1}/${chosen.length}] ${f}`);
          await runSqlFile(engine, project.database, join(dir, f));
        }
        output.result({ database: project.database, applied: chosen }, output.success(chosen.length === 0 ? 'no seed to apply' : `${chosen.length} seed file${chosen.length === 1 ? '' : 's'} applied`));
      }),
    );
}
