/**
 * `deploy` run as a process against an engine on an empty database: the project's migrations,
 * then the metadata reload; a failing migration stops it before the reload, exit code 1.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useEngine } from '../support/fixture.js';
import { runCli } from '../support/cli.js';

const fx = useEngine();

describe('deploy', () => {
  it('applies the migrations of a new project on an empty database, then reloads the metadata; stops at a failure', async () => {
    const project = mkdtempSync(join(tmpdir(), 'cli-deploy-'));
    const cli = (...args: string[]) => runCli([...args, '--endpoint', fx.engine.url, '--project', project]);
    expect((await cli('migrate', 'create', 'one', '--up-sql', 'CREATE TABLE deployed (id int);')).code).toBe(0);
    expect((await cli('migrate', 'create', 'two', '--up-sql', 'INSERT INTO deployed VALUES (1);')).code).toBe(0);
    const r = await cli('deploy');
    expect(r).toMatchObject({ code: 0, stdout: '✔ 2 migrations applied\n' });
    expect(r.stderr.split('\n').filter((l) => !l.startsWith('['))).toEqual(['applying migrations', 'reloading metadata', '']);
    expect((await fx.db.sql('SELECT count(*)::int AS n FROM deployed')).rows[0].n).toBe(1);

    expect((await cli('migrate', 'create', 'bad', '--up-sql', 'SELECT nope;')).code).toBe(0);
    const failed = await cli('deploy');
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/_bad\/up\.sql: column "nope" does not exist/);
    expect(failed.stderr).not.toContain('reloading metadata');
    expect((await runCli(['deploy', '--endpoint', 'http://127.0.0.1:9', '--project', project])).code).toBe(4);
  });
});
