/**
 * `migrate create | apply | status | delete`, as the well-known tool has them: migrations are
 * files in the project (`migrations/files.ts`), the versions a database has are the tool's
 * catalog state on the engine (`migrations/state.ts`), so every machine sees the same.
 */
import { Command, InvalidArgumentError, Option } from 'commander';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { action, CliError, EXIT } from '../command.js';
import { byVersion, newVersion, readMigrations, removeMigration, writeMigration } from '../migrations/files.js';
import { MigrationState } from '../migrations/state.js';
import { applyMigrations, reportApplied, type ApplyOptions } from '../migrations/apply.js';

/** A count of migrations, or `all` (the well-known tool's `--down all`). */
function count(v: string): number | 'all' {
  if (v === 'all') return 'all';
  if (!/^\d+$/.test(v) || Number(v) < 1) throw new InvalidArgumentError('expected a positive number or "all"');
  return Number(v);
}

function version(v: string): string {
  if (!/^\d+$/.test(v)) throw new InvalidArgumentError('expected a version (digits)');
  return v;
}

interface CreateOptions {
  fromServer?: boolean;
  sqlFromFile?: string;
  upSql?: string;
  downSql?: string;
  schema: string[];
}

export function registerMigrateCommands(program: Command): void {
  const migrate = program.command('migrate').description("the database's migrations: up.sql/down.sql per version, applied in order");

  migrate
    .command('create <name>')
    .description('write a new migration (migrations/<database>/<version>_<name>/up.sql, down.sql)')
    .option('--from-server', "the database's current schema (schema only) as the migration")
    .option('--schema <name...>', 'with --from-server: only these schemas', ['public'])
    .option('--sql-from-file <file>', 'up.sql copied from this file')
    .option('--up-sql <sql>', 'the text of up.sql')
    .option('--down-sql <sql>', 'the text of down.sql')
    .action(
      action<[string], CreateOptions>(async ({ project, engine, output }, o, name) => {
        if ([o.fromServer, o.sqlFromFile, o.upSql].filter((x) => x !== undefined).length > 1) throw new CliError('give one of --from-server, --sql-from-file and --up-sql', EXIT.usage);
        let up = o.upSql ?? '';
        if (o.sqlFromFile !== undefined) {
          try {
            up = readFileSync(resolve(o.sqlFromFile), 'utf8');
          } catch (e) {
            throw new CliError(`${o.sqlFromFile}: ${(e as Error).message}`, EXIT.usage);
          }
        }
        if (o.fromServer) up = await engine.pgDump(['-O', '-x', '--schema-only', ...o.schema.flatMap((s) => ['--schema', s])], project.database);
        const existing = readMigrations(project.migrationsDir, project.database);
        const m = writeMigration(project.migrationsDir, project.database, newVersion(existing), name, up, o.downSql ?? '');
        output.result({ version: Number(m.version), name: m.name, directory: m.dir }, output.success(`created migration ${m.version}_${m.name} in ${m.dir}`));
      }),
    );

  migrate
    .command('apply')
    .description('apply the pending migrations (or --up N, --down N, one --version)')
    .addOption(new Option('--up <n>', 'apply the next n pending migrations (or "all")').argParser(count))
    .addOption(new Option('--down <n>', 'revert the last n applied migrations (or "all")').argParser(count))
    .addOption(new Option('--version <version>', 'only this migration').argParser(version))
    .addOption(new Option('--type <direction>', 'with --version: up or down').choices(['up', 'down']))
    .option('--skip-execution', 'record the migrations as applied (or reverted) without running them')
    .action(
      action<[], ApplyOptions>(async (ctx, o) => {
        if ([o.up, o.down, o.version].filter((x) => x !== undefined).length > 1) throw new CliError('give one of --up, --down and --version', EXIT.usage);
        if (o.type !== undefined && o.version === undefined) throw new CliError('--type goes with --version', EXIT.usage);
        reportApplied(ctx, await applyMigrations(ctx, o));
      }),
    );

  migrate
    .command('status')
    .description('each version: on disk or not, applied to the database or not')
    .action(
      action(async ({ project, engine, output }) => {
        const onDisk = new Map(readMigrations(project.migrationsDir, project.database).map((m) => [m.version, m]));
        const applied = (await MigrationState.read(engine, project.database)).applied();
        const versions = [...new Set([...onDisk.keys(), ...applied])].sort(byVersion);
        const rows = versions.map((v) => ({ version: Number(v), name: onDisk.get(v)?.name ?? '', source_status: onDisk.has(v) ? 'present' : 'missing', database_status: applied.has(v) ? 'applied' : 'not applied' }));
        const table = output.table(['VERSION', 'NAME', 'SOURCE STATUS', 'DATABASE STATUS'], rows.map((r) => [String(r.version), r.name, r.source_status, r.database_status]));
        output.result({ database: project.database, migrations: rows }, table);
      }),
    );

  migrate
    .command('delete')
    .description('delete migrations from the project and from the database\'s record (not their effect)')
    .addOption(new Option('--version <version>', 'this migration').argParser(version))
    .option('--all', 'every migration of the database')
    .option('--server', "only from the database's record; the files stay")
    .action(
      action<[], { version?: string; all?: boolean; server?: boolean }>(async ({ project, engine, output }, o) => {
        if ((o.version === undefined) === (o.all === undefined)) throw new CliError('give --version or --all', EXIT.usage);
        const onDisk = readMigrations(project.migrationsDir, project.database);
        const state = await MigrationState.read(engine, project.database);
        const versions = o.all ? [...new Set([...onDisk.map((m) => m.version), ...state.applied()])] : [o.version!];
        if (!o.all && !onDisk.some((m) => m.version === o.version) && !state.applied().has(o.version!)) throw new CliError(`no migration with version ${o.version}`);
        for (const v of versions) {
          if (state.applied().has(v)) await state.set(v, false);
          const m = onDisk.find((x) => x.version === v);
          if (m && !o.server) removeMigration(m);
        }
        output.result({ database: project.database, deleted: versions.map(Number) }, output.success(`deleted ${versions.length} migration${versions.length === 1 ? '' : 's'}`));
      }),
    );
}
