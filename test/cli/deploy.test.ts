/**
 * `deploy` run as a process against an engine on an empty database: the project's migrations,
 * then its metadata, then the metadata reload; a failing migration stops it before the metadata,
 * exit code 1. The project workflow of the README: init, metadata export, migrate create, a table
 * added to the metadata files, deploy, and the table is served.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
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
    expect((await cli('metadata', 'export')).code).toBe(0);
    const r = await cli('deploy');
    expect(r).toMatchObject({ code: 0, stdout: '✔ 2 migrations applied\n' });
    expect(r.stderr.split('\n').filter((l) => !l.startsWith('['))).toEqual(['applying migrations', expect.stringMatching(/^applying .*metadata \(1 source\(s\), 0 table\(s\)/), 'reloading metadata', '']);
    expect((await fx.db.sql('SELECT count(*)::int AS n FROM deployed')).rows[0].n).toBe(1);

    expect((await cli('migrate', 'create', 'bad', '--up-sql', 'SELECT nope;')).code).toBe(0);
    const failed = await cli('deploy');
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/_bad\/up\.sql: column "nope" does not exist/);
    expect(failed.stderr).not.toContain('applying metadata');
    expect((await runCli(['deploy', '--endpoint', 'http://127.0.0.1:9', '--project', project])).code).toBe(4);
  });

  it('init, metadata export, migrate create, a table added to the files, deploy: the table is served', async () => {
    const project = join(mkdtempSync(join(tmpdir(), 'cli-flow-')), 'app');
    expect((await runCli(['init', project, '--endpoint', fx.engine.url])).code).toBe(0);
    const cli = (...args: string[]) => runCli(args, { cwd: project });
    expect((await cli('metadata', 'export')).code).toBe(0);
    expect((await cli('migrate', 'create', 'books', '--up-sql', "CREATE TABLE book (id int PRIMARY KEY, title text); INSERT INTO book VALUES (1, 'Dune');", '--down-sql', 'DROP TABLE book;')).code).toBe(0);
    const tables = join(project, 'metadata/databases/default/tables');
    // The new source's tables.yaml is `[]`: the table's include replaces it.
    writeFileSync(join(tables, 'tables.yaml'), '- "!include public_book.yaml"\n');
    writeFileSync(join(tables, 'public_book.yaml'), 'table:\n  schema: public\n  name: book\n');
    const pending = await cli('metadata', 'diff', '--output', 'json');
    expect(JSON.parse(pending.stdout).changed).toEqual(['databases/default/tables/public_book.yaml', 'databases/default/tables/tables.yaml']);
    const deployed = await cli('deploy');
    expect(deployed.code, deployed.stderr).toBe(0);
    const answer = await fetch(`${fx.engine.url}/v1/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ book { title } }' }) });
    expect(await answer.json()).toEqual({ data: { book: [{ title: 'Dune' }] } });
    const after = await cli('metadata', 'diff');
    expect(after.stdout, after.stdout).toBe('✔ no difference\n');
  });
});
