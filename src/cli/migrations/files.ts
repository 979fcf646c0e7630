/**
 * Migrations on disk, as the well-known tool lays them out: `migrations/<database>/<version>_<name>/`
 * with `up.sql` and `down.sql`, the version a millisecond timestamp; applied in version order.
 */
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CliError, EXIT } from '../errors.js';

export interface MigrationFiles {
  version: string;
  name: string;
  dir: string;
  /** The file of each direction, when there is one. */
  up?: string;
  down?: string;
}

const DIR_NAME = /^(\d+)_(.+)$/;

export const byVersion = (a: string, b: string): number => (BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0);

/** The database's migrations on disk, by version (a directory not named `<version>_<name>` is ignored). */
export function readMigrations(migrationsDir: string, database: string): MigrationFiles[] {
  const root = join(migrationsDir, database);
  if (!existsSync(root)) return [];
  const found: MigrationFiles[] = [];
  for (const entry of readdirSync(root, { withFileTypes: true })) {
    const m = entry.isDirectory() ? DIR_NAME.exec(entry.name) : null;
    if (!m) continue;
    const dir = join(root, entry.name);
    const file = (f: string) => (existsSync(join(dir, f)) ? join(dir, f) : undefined);
    found.push({ version: m[1]!, name: m[2]!, dir, up: file('up.sql'), down: file('down.sql') });
  }
  const seen = new Set<string>();
  for (const m of found) {
    if (seen.has(m.version)) throw new CliError(`${root}: two migrations have version ${m.version}`, EXIT.usage);
    seen.add(m.version);
  }
  return found.sort((a, b) => byVersion(a.version, b.version));
}

/** Writes a new migration; `up`/`down` are the files' text. */
export function writeMigration(migrationsDir: string, database: string, version: string, name: string, up: string, down: string): MigrationFiles {
  if (!/^[\w.-]+$/.test(name)) throw new CliError(`migration name "${name}": use letters, digits, "_", "-" and "." only`, EXIT.usage);
  const dir = join(migrationsDir, database, `${version}_${name}`);
  if (existsSync(dir)) throw new CliError(`${dir} already exists`, EXIT.usage);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'up.sql'), up);
  writeFileSync(join(dir, 'down.sql'), down);
  return { version, name, dir, up: join(dir, 'up.sql'), down: join(dir, 'down.sql') };
}

export const removeMigration = (m: MigrationFiles): void => rmSync(m.dir, { recursive: true, force: true });

/** A version as the well-known tool makes it: the time in milliseconds, one past `after` when the clock has not moved. */
export function newVersion(existing: readonly MigrationFiles[]): string {
  const last = existing.length > 0 ? BigInt(existing[existing.length - 1]!.version) : 0n;
  const now = BigInt(Date.now());
  return String(now > last ? now : last + 1n);
}
