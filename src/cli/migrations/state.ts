/**
 * Which migrations a database has, kept where every engine and machine read the same: the
 * command-line tool's catalog state on the engine (`get_catalog_state` / `set_catalog_state`,
 * type `cli`), in the well-known tool's shape: `migrations.<database>.<version>` is the version's
 * dirty flag (true while it was being applied and never confirmed). The other keys of the state
 * (the console's settings, another tool's) are kept as they are.
 */
import type { EngineClient } from '../engine-client.js';
import { CliError } from '../errors.js';

type CliState = Record<string, unknown> & { migrations?: Record<string, Record<string, boolean>> };

export class MigrationState {
  private constructor(
    private readonly engine: EngineClient,
    private state: CliState,
    readonly database: string,
  ) {}

  static async read(engine: EngineClient, database: string): Promise<MigrationState> {
    const r = await engine.metadata<{ cli_state?: unknown }>('get_catalog_state', {});
    const s = r.cli_state;
    const state = s !== null && typeof s === 'object' && !Array.isArray(s) ? (s as CliState) : {};
    return new MigrationState(engine, state, database);
  }

  private get versions(): Record<string, boolean> {
    return this.state.migrations?.[this.database] ?? {};
  }

  applied(): Set<string> {
    return new Set(Object.keys(this.versions));
  }

  /** A version left dirty (by a run of the well-known tool that stopped half way): nothing is applied until it is settled. */
  checkClean(): void {
    const dirty = Object.entries(this.versions).filter(([, d]) => d === true).map(([v]) => v);
    if (dirty.length > 0) throw new CliError(`database "${this.database}": version ${dirty.join(', ')} is marked dirty; check the database, then settle it with "migrate apply --skip-execution --version V [--type down]"`);
  }

  /** Records `version` as applied (or no longer) on the engine, keeping the rest of the state. */
  async set(version: string, applied: boolean): Promise<void> {
    const versions = { ...this.versions };
    if (applied) versions[version] = false;
    else delete versions[version];
    const next: CliState = { ...this.state, migrations: { ...this.state.migrations, [this.database]: versions } };
    await this.engine.metadata('set_catalog_state', { type: 'cli', state: next });
    this.state = next;
  }
}
