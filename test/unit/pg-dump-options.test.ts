/** The pg_dump options `/v1alpha1/pg_dump` takes: what the tools send passes; anything that could dump elsewhere or write a file is refused at its index. */
import { describe, expect, it } from 'vitest';
import { checkPgDumpOptions } from '../../src/actors/metadata/pg-dump-options.js';
import { ApiError } from '../../src/errors/admin.js';

const refusedAt = (opts: string[]) => {
  try {
    checkPgDumpOptions(opts);
  } catch (e) {
    return (e as ApiError).path;
  }
  return null;
};

describe('checkPgDumpOptions', () => {
  it.each([
    [['-O', '-x', '--schema-only', '--schema', 'public', '--schema', 'app']],
    [['--data-only', '--column-inserts', '--table', 'public.author']],
    [['--schema=public', '-nother', '-t', 'x', '--no-acl', '--encoding=UTF8']],
  ])('takes %j', (opts) => expect(refusedAt(opts)).toBeNull());

  it.each([
    [['--file', '/tmp/x'], '$.opts[0]'],
    [['--schema-only', '--fil=/etc/passwd'], '$.opts[1]'],
    [['--db=other'], '$.opts[0]'],
    [['-d', 'other'], '$.opts[0]'],
    [['-hotherhost'], '$.opts[0]'],
    [['--schema-only', 'otherdb'], '$.opts[1]'],
    [['--schema'], '$.opts[0]'],
    [['--table', '--schema-only'], '$.opts[0]'],
    [['--schema-only=yes'], '$.opts[0]'],
    [['-sO'], '$.opts[0]'],
    [['--format=custom'], '$.opts[0]'],
  ])('refuses %j at %s', (opts, path) => expect(refusedAt(opts)).toBe(path));
});
