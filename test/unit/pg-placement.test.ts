/** Whether user postgres can reach a path, read from the modes and owners on the way; the relocation folders. */
import { constants } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usableBy, type Account } from '../../src/db/pg-account.js';
import { relocationFolder, RELOCATION_ROOT, rootOnlyFolder } from '../../src/db/pg-placement.js';

let top: string;
let inner: string;
let file: string;

beforeAll(async () => {
  top = await mkdtemp(join(tmpdir(), 'service-reach-'));
  inner = join(top, 'inner');
  await mkdir(inner, { mode: 0o755 });
  file = join(inner, 'file');
  await mkdir(file, { mode: 0o755 });
});

afterAll(async () => {
  await chmod(top, 0o700);
  await rm(top, { recursive: true, force: true });
});

describe('usableBy', () => {
  // Pure checks of modes: the ids need not exist.
  const stranger: Account = { uid: 424242, gid: 424242, groups: [424242] };

  it('needs search rights on every folder on the way, as the kernel does', async () => {
    await chmod(top, 0o700); // like root's home
    expect(await usableBy(file, stranger, constants.X_OK)).toBe(false);
    await chmod(top, 0o711);
    expect(await usableBy(file, stranger, constants.X_OK)).toBe(true);
    expect(await usableBy(file, stranger, constants.W_OK)).toBe(false);
  });

  it('applies the owner bits to the owner and the group bits to members, exclusively', async () => {
    // On the target itself, which this process can still stat whatever its mode.
    await chmod(top, 0o711);
    const { uid, gid } = await stat(file);
    await chmod(file, 0o071);
    try {
      expect(await usableBy(file, { uid, gid: 424242, groups: [424242] }, constants.X_OK)).toBe(false);
      expect(await usableBy(file, { uid: 424242, gid: 424242, groups: [424242, gid] }, constants.X_OK)).toBe(true);
    } finally {
      await chmod(file, 0o755);
    }
    expect(await usableBy(file, { uid, gid, groups: [gid] }, constants.X_OK)).toBe(true);
  });

  it('says no for a path that does not exist', async () => {
    expect(await usableBy(join(inner, 'missing'), stranger, constants.X_OK)).toBe(false);
  });
});

describe('relocation', () => {
  it('keys the folder by the data dir', () => {
    expect(relocationFolder('/root/a/.service')).toMatch(new RegExp(`^${RELOCATION_ROOT}/[0-9a-f]{16}$`));
    expect(relocationFolder('/root/a/.service')).toBe(relocationFolder('/root/a/.service'));
    expect(relocationFolder('/root/b/.service')).not.toBe(relocationFolder('/root/a/.service'));
  });

  it('refuses a folder others may write to (or not owned by root)', async () => {
    const open = join(top, 'open');
    await mkdir(open);
    await chmod(open, 0o777);
    await expect(rootOnlyFolder(open)).rejects.toThrow(/must be a folder owned by root and writable only by it/);
  });
});
