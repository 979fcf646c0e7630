/**
 * PostgreSQL refuses to run as root, so a root engine runs it as the system user `postgres`.
 * That user reaches a file only through folders it may search: a project cloned into root's
 * private home (mode 0700) is out of its reach. These helpers find (or create) the account and
 * tell, from the modes and owners of every folder on the way, whether it can use a path.
 */
import { execFile } from 'node:child_process';
import { constants } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export const POSTGRES_USER = 'postgres';

export interface Account {
  uid: number;
  gid: number;
  /** Every group the user belongs to, the primary one included. */
  groups: number[];
}

async function lookup(): Promise<Account | null> {
  try {
    const [uid, gid, groups] = await Promise.all(['-u', '-g', '-G'].map((flag) => run('id', [flag, POSTGRES_USER])));
    return { uid: Number(uid!.stdout), gid: Number(gid!.stdout), groups: groups!.stdout.trim().split(/\s+/).map(Number) };
  } catch {
    return null;
  }
}

/** The `postgres` account, created (as a system user without a home) when missing. */
export async function postgresAccount(): Promise<Account> {
  const found = await lookup();
  if (found) return found;
  try {
    await run('groupadd', ['--force', '--system', POSTGRES_USER]);
    await run('useradd', ['--system', '--no-create-home', '--gid', POSTGRES_USER, POSTGRES_USER]);
  } catch (e) {
    throw new Error(`running as root needs the system user "${POSTGRES_USER}", which could not be created (${firstLine(e)})`);
  }
  const created = await lookup();
  if (!created) throw new Error(`the system user "${POSTGRES_USER}" was created but cannot be looked up`);
  return created;
}

function firstLine(e: unknown): string {
  const err = e as { stderr?: string; message?: string };
  return (err.stderr || err.message || String(e)).trim().split('\n')[0]!;
}

/** The permission bits (`constants.X_OK`, `R_OK`, `W_OK`) that apply to `account` on a file. */
function allows(st: { uid: number; gid: number; mode: number }, account: Account, wanted: number): boolean {
  const shift = st.uid === account.uid ? 6 : account.groups.includes(st.gid) ? 3 : 0;
  return ((st.mode >> shift) & wanted) === wanted;
}

/**
 * Whether `account` may search every folder from `/` down to `path` (symbolic links resolved:
 * the resolved path is the one to hand to PostgreSQL) and has the `wanted` bits on `path` itself.
 * ACLs are not read: a folder opened to the user by an ACL only counts as unreachable.
 */
export async function usableBy(path: string, account: Account, wanted: number): Promise<boolean> {
  try {
    const real = await realpath(path);
    if (!allows(await stat(real), account, wanted)) return false;
    for (let dir = dirname(real); ; dir = dirname(dir)) {
      if (!allows(await stat(dir), account, constants.X_OK)) return false;
      if (dir === dirname(dir)) return true;
    }
  } catch {
    return false;
  }
}
