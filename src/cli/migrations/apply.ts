/**
 * `migrate apply`: which migrations run in which direction, and running them, each file in its
 * own transaction (`run-sql-file.ts`), recorded as applied only once it succeeded. The run stops
 * at the first failure.
 */
import type { CommandContext } from '../command.js';
import type { EngineClient } from '../engine-client.js';
import { CliError } from '../errors.js';
import type { Output } from '../output.js';
import { byVersion, readMigrations, type MigrationFiles } from './files.js';
import { runSqlFile } from './run-sql-file.js';
import { MigrationState } from './state.js';

export type Direction = 'up' | 'down';

export interface ApplyOptions {
  up?: number | 'all';
  down?: number | 'all';
  version?: string;
  type?: Direction;
  skipExecution?: boolean;
}

export interface Step {
  migration: MigrationFiles;
  direction: Direction;
}

/** The steps `o` asks for, given what is on disk (by version) and what the database has. */
export function plan(onDisk: readonly MigrationFiles[], applied: ReadonlySet<string>, o: ApplyOptions): Step[] {
  if (o.version !== undefined) {
    const direction = o.type ?? 'up';
    const m = onDisk.find((x) => x.version === o.version);
    if (!m) throw new CliError(`no migration with version ${o.version} on disk`);
    if ((direction === 'up') === applied.has(m.version)) throw new CliError(`migration ${m.version} is ${direction === 'up' ? 'already applied' : 'not applied'}`);
    return [{ migration: m, direction }];
  }
  if (o.down !== undefined) {
    const done = [...applied].sort(byVersion).reverse();
    return done.slice(0, o.down === 'all' ? done.length : o.down).map((v) => {
      const migration = onDisk.find((m) => m.version === v);
      // Reverting needs its down.sql: a version recorded by another checkout is not skipped silently.
      if (!migration) throw new CliError(`migration ${v} is applied but missing on disk: nothing to revert it with`);
      return { migration, direction: 'down' as const };
    });
  }
  const pending = onDisk.filter((m) => !applied.has(m.version));
  return pending.slice(0, o.up === undefined || o.up === 'all' ? pending.length : o.up).map((migration) => ({ migration, direction: 'up' }));
}

async function runSteps(engine: EngineClient, state: MigrationState, steps: readonly Step[], skipExecution: boolean, output: Output): Promise<void> {
  for (const [i, { migration, direction }] of steps.entries()) {
    const file = migration[direction];
    output.info(`[${i + 1}/${steps.length}] ${direction} ${migration.version}_${migration.name}${skipExecution ? ' (not executed)' : ''}`);
    if (!skipExecution) {
      if (!file) throw new CliError(`migration ${migration.version}_${migration.name} has no ${direction}.sql (in ${migration.dir})`);
      await runSqlFile(engine, state.database, file);
    }
    await state.set(migration.version, direction === 'up');
  }
}

/** Applies what `o` asks for on the project's database; what ran, in order. */
export async function applyMigrations({ project, engine, output }: CommandContext, o: ApplyOptions): Promise<Step[]> {
  const state = await MigrationState.read(engine, project.database);
  if (!o.skipExecution) state.checkClean();
  const steps = plan(readMigrations(project.migrationsDir, project.database), state.applied(), o);
  await runSteps(engine, state, steps, o.skipExecution === true, output);
  return steps;
}

/** What `migrate apply` and `deploy` print. */
export function reportApplied({ project, output }: CommandContext, steps: readonly Step[]): void {
  const done = steps.map((s) => ({ version: Number(s.migration.version), name: s.migration.name, direction: s.direction }));
  output.result({ database: project.database, applied: done }, output.success(steps.length === 0 ? 'nothing to apply' : `${steps.length} migration${steps.length === 1 ? '' : 's'} applied`));
}
