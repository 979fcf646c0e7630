/**
 * The tool's migrations, seeds and deploy, run as a process against a running engine: create and
 * apply on an empty database, status, `--down 1`, a failing migration (one message, exit 1,
 * nothing half-applied, status unchanged), the versions applied as the catalog state every
 * engine on the metadata database reads, `--from-server` through `/v1alpha1/pg_dump`, and seeds.
 */
import { mkdtempSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { useEngine } from '../support/fixture.js';
import { pgDumpDatabase } from '../support/db.js';
import { startEngine } from '../support/engine.js';
import { runCli } from '../support/cli.js';

const SECRET = 'cli-migrate-secret';
// pg_dump (`--from-server`, seeds from a table) refuses a server newer than itself.
const fx = useEngine({ SERVICE_GRAPHQL_ADMIN_SECRET: SECRET }, [], pgDumpDatabase);
const admin = { 'x-service-admin-secret': SECRET };
let project: string;
let flags: string[];

const cli = (...args: string[]) => runCli([...args, ...flags], { cwd: project });
const tableExists = async (name: string) => (await fx.db.sql('SELECT to_regclass($1) IS NOT NULL AS e', [name])).rows[0].e as boolean;
const status = async () => JSON.parse((await cli('migrate', 'status', '--output', 'json')).stdout).migrations as { version: number; name: string; source_status: string; database_status: string }[];
const versions = () => readdirSync(join(project, 'migrations', 'default')).sort();

beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), 'cli-migrate-'));
  flags = ['--endpoint', fx.engine.url, '--admin-secret', SECRET];
});

describe('migrations', () => {
  it('creates migrations, applies them on an empty database, shows their status and reverts one', async () => {
    const first = await cli('migrate', 'create', 'create_author', '--up-sql', 'CREATE TABLE author (id int PRIMARY KEY, name text);', '--down-sql', 'DROP TABLE author;');
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/created migration \d{13}_create_author/);
    const sqlFile = join(project, 'book.sql');
    writeFileSync(sqlFile, 'CREATE TABLE book (id int PRIMARY KEY, author_id int REFERENCES author (id));\n');
    expect((await cli('migrate', 'create', 'create_book', '--sql-from-file', sqlFile, '--down-sql', 'DROP TABLE book;')).code).toBe(0);
    const [a, b] = versions();
    expect(a).toMatch(/^\d{13}_create_author$/);
    expect(readFileSync(join(project, 'migrations', 'default', b!, 'up.sql'), 'utf8')).toContain('CREATE TABLE book');

    expect((await status()).map((m) => [m.name, m.source_status, m.database_status])).toEqual([
      ['create_author', 'present', 'not applied'],
      ['create_book', 'present', 'not applied'],
    ]);
    const applied = await cli('migrate', 'apply');
    expect(applied).toMatchObject({ code: 0, stdout: '✔ 2 migrations applied\n' });
    expect(applied.stderr).toContain('[2/2] up');
    expect([await tableExists('author'), await tableExists('book')]).toEqual([true, true]);
    const table = (await cli('migrate', 'status')).stdout.split('\n');
    expect(table[0]).toMatch(/^VERSION\s+NAME\s+SOURCE STATUS\s+DATABASE STATUS$/);
    expect(table[1]).toMatch(/create_author\s+present\s+applied$/);
    expect((await cli('migrate', 'apply')).stdout).toBe('✔ nothing to apply\n');

    expect((await cli('migrate', 'apply', '--down', '1')).code).toBe(0);
    expect(await tableExists('book')).toBe(false);
    expect((await status()).map((m) => m.database_status)).toEqual(['applied', 'not applied']);
    expect((await cli('migrate', 'apply', '--version', b!.split('_')[0]!)).code).toBe(0);
    expect(await tableExists('book')).toBe(true);
  });

  it('stops at a failing migration with one message naming the file, exit 1, nothing of it applied', async () => {
    const before = await status();
    expect((await cli('migrate', 'create', 'broken', '--up-sql', 'CREATE TABLE half (id int);\nINSERT INTO nowhere VALUES (1);\n')).code).toBe(0);
    const broken = versions().at(-1)!;
    const r = await cli('migrate', 'apply');
    expect(r.code).toBe(1);
    const errors = r.stderr.split('\n').filter((l) => l.startsWith('error:'));
    expect(errors).toEqual([`error: ${join(project, 'migrations', 'default', broken, 'up.sql')}: relation "nowhere" does not exist`]);
    expect(await tableExists('half')).toBe(false);
    expect((await status()).slice(0, before.length)).toEqual(before);
    expect((await status()).at(-1)).toMatchObject({ name: 'broken', database_status: 'not applied' });
    expect((await cli('migrate', 'delete', '--version', broken.split('_')[0]!)).code).toBe(0);
    expect(versions()).not.toContain(broken);
  });

  it('keeps the applied versions in the catalog state, which every engine on the metadata database answers', async () => {
    const onDisk = versions().map((v) => v.split('_')[0]!);
    const state = await fx.engine.metadata({ type: 'get_catalog_state', args: {} }, admin);
    expect(state.status).toBe(200);
    expect(state.body).toMatchObject({ id: expect.any(String), console_state: {}, cli_state: { migrations: { default: Object.fromEntries(onDisk.map((v) => [v, false])) } } });
    const other = await startEngine({ SERVICE_GRAPHQL_DATABASE_URL: fx.db.url, SERVICE_GRAPHQL_ADMIN_SECRET: SECRET });
    try {
      const r = await runCli(['migrate', 'status', '--output', 'json', '--endpoint', other.url, '--admin-secret', SECRET], { cwd: project });
      expect(JSON.parse(r.stdout).migrations.map((m: { database_status: string }) => m.database_status)).toEqual(['applied', 'applied']);
    } finally {
      await other.stop();
    }
  });

  it('keeps the migrations of each database apart (--database-name)', async () => {
    const added = await fx.engine.metadata({ type: 'pg_add_source', args: { name: 'other', configuration: { connection_info: { database_url: fx.db.url } } } }, admin);
    expect(added.status).toBe(200);
    expect((await cli('migrate', 'create', 'schema', '--database-name', 'other', '--up-sql', 'CREATE SCHEMA other_side;')).code).toBe(0);
    expect(readdirSync(join(project, 'migrations', 'other'))).toHaveLength(1);
    expect((await cli('migrate', 'apply', '--database-name', 'other')).stdout).toBe('✔ 1 migration applied\n');
    expect((await fx.db.sql("SELECT count(*)::int AS n FROM pg_namespace WHERE nspname = 'other_side'")).rows[0].n).toBe(1);
    const state = (await fx.engine.metadata({ type: 'get_catalog_state', args: {} }, admin)).body;
    expect(Object.keys(state.cli_state.migrations)).toEqual(['default', 'other']);
    expect((await status()).map((m) => m.name)).not.toContain('schema');
  });

  it('answers get_catalog_state and set_catalog_state as the well-known engine, with errors at their path', async () => {
    expect((await fx.engine.metadata({ type: 'set_catalog_state', args: { type: 'console', state: { onboardingShown: true } } }, admin)).body).toEqual({ message: 'success' });
    expect((await fx.engine.metadata({ type: 'get_catalog_state', args: {} }, admin)).body).toMatchObject({ console_state: { onboardingShown: true } });
    const bad = await fx.engine.metadata({ type: 'set_catalog_state', args: { type: 'server', state: {} } }, admin);
    expect([bad.status, bad.body.path, bad.body.code]).toEqual([400, '$.args.type', 'parse-failed']);
    const missing = await fx.engine.metadata({ type: 'set_catalog_state', args: { type: 'cli' } }, admin);
    expect([missing.status, missing.body.code]).toEqual([400, 'parse-failed']);
    expect((await fx.engine.metadata({ type: 'get_catalog_state', args: {} })).status).toBe(401);
  });

  it('writes the database schema as the first migration with --from-server, and deletes migrations from the server only', async () => {
    const r = await cli('migrate', 'create', 'init', '--from-server');
    expect(r.code).toBe(0);
    const init = versions().at(-1)!;
    const up = readFileSync(join(project, 'migrations', 'default', init, 'up.sql'), 'utf8');
    expect(up).toContain('CREATE TABLE public.author');
    expect(up).toContain('CREATE TABLE public.book');
    expect(up).not.toMatch(/^(--|SET )/m);
    expect(up).not.toContain('INSERT');
    expect((await cli('migrate', 'apply', '--skip-execution', '--version', init.split('_')[0]!)).code).toBe(0);
    expect((await status()).at(-1)).toMatchObject({ name: 'init', database_status: 'applied' });
    const moved = join(tmpdir(), `moved-${init}`);
    renameSync(join(project, 'migrations', 'default', init), moved);
    expect((await status()).at(-1)).toMatchObject({ name: '', source_status: 'missing', database_status: 'applied' });
    const down = await cli('migrate', 'apply', '--down', '1');
    expect([down.code, down.stderr]).toEqual([1, `error: migration ${init.split('_')[0]} is applied but missing on disk: nothing to revert it with\n`]);
    renameSync(moved, join(project, 'migrations', 'default', init));
    expect((await cli('migrate', 'delete', '--version', init.split('_')[0]!, '--server')).code).toBe(0);
    expect((await status()).at(-1)).toMatchObject({ name: 'init', source_status: 'present', database_status: 'not applied' });
    const refused = await fx.engine.post('/v1alpha1/pg_dump', { opts: ['--file', '/tmp/x'] }, admin);
    expect([refused.status, refused.body.path]).toEqual([400, '$.opts[0]']);
    const unknown = await fx.engine.post('/v1alpha1/pg_dump', { opts: ['--schema-only'], source: 'nope' }, admin);
    expect([unknown.status, unknown.body.path, unknown.body.code]).toEqual([400, '$.source', 'not-exists']);
    expect((await fx.engine.post('/v1alpha1/pg_dump', { opts: ['--schema-only'] })).status).toBe(401);
  });
});

describe('seeds', () => {
  it('creates a seed from a table and applies the seeds in name order', async () => {
    await fx.db.sql("INSERT INTO author VALUES (1, 'Ann'), (2, 'O''Brien')");
    expect((await cli('seed', 'create', 'authors', '--from-table', 'public.author')).code).toBe(0);
    const dir = join(project, 'seeds', 'default');
    const [seed] = readdirSync(dir);
    expect(seed).toMatch(/^\d{13}_authors\.sql$/);
    expect(readFileSync(join(dir, seed!), 'utf8')).toContain(`INSERT INTO public.author (id, name) VALUES (2, 'O''Brien');`);
    await fx.db.sql('DELETE FROM author');
    writeFileSync(join(dir, '9999999999999_books.sql'), 'INSERT INTO book VALUES (10, 2);\n');
    const r = await cli('seed', 'apply');
    expect(r).toMatchObject({ code: 0, stdout: '✔ 2 seed files applied\n' });
    expect((await fx.db.sql('SELECT count(*)::int AS n FROM book WHERE author_id = 2')).rows[0].n).toBe(1);
    const one = await cli('seed', 'apply', '--file', '9999999999999_books.sql');
    expect(one.code).toBe(1);
    expect(one.stderr).toContain('9999999999999_books.sql: duplicate key value violates unique constraint');
  });
});
