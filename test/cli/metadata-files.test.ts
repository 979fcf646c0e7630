/**
 * The metadata as files, run as a process against a running engine: a project written in the
 * well-known tool's version 3 layout (test/cli/fixtures/well-known-project, from its documentation:
 * `!include` at two levels, every permission kind, relationships, a remote schema, actions with
 * custom types, event and cron triggers, collections, REST endpoints, inherited roles) applies
 * unchanged and serves; export → apply → export gives the same files; a change on the server
 * meanwhile is a conflict; bad YAML and a missing include are one message, nothing changed.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { useEngine } from '../support/fixture.js';
import { RemoteGraphQL } from '../support/remote-graphql.js';
import { listFiles } from '../../src/cli/project-dir/files.js';

const SECRET = 'cli-files-secret-3';
const admin = { 'x-service-admin-secret': SECRET };
const remote = new RemoteGraphQL('type Query { hello(name: String!): String! }', { hello: ({ name }: { name: string }) => `hello ${name}` });
const env: Record<string, string> = { SERVICE_GRAPHQL_ADMIN_SECRET: SECRET, ACTION_BASE_URL: 'http://127.0.0.1:9' };
beforeAll(async () => {
  await remote.start();
  env.CLI_REMOTE_SCHEMA_URL = remote.url;
});
const fx = useEngine(env);
afterAll(() => remote.stop());

let flags: string[];
const FIXTURE = new URL('./fixtures/well-known-project', import.meta.url).pathname;

/** A copy of the fixture project in a temporary directory (the tool writes its state there). */
function project(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cli-files-'));
  cpSync(FIXTURE, dir, { recursive: true });
  return dir;
}

const snapshot = (dir: string) => new Map(listFiles(dir).map((f) => [f, readFileSync(join(dir, f), 'utf8')]));
const resourceVersion = async () => (await fx.engine.metadata({ type: 'export_metadata', version: 2, args: {} }, admin)).body.resource_version as number;
const gql = async (query: string, headers: Record<string, string>) => (await fx.engine.post('/v1/graphql', { query }, headers)).body;

beforeAll(async () => {
  flags = ['--endpoint', fx.engine.url, '--admin-secret', SECRET];
  await fx.db.sql(`
    CREATE TABLE author (id int PRIMARY KEY, name text NOT NULL);
    CREATE TABLE article (id int PRIMARY KEY, title text NOT NULL, author_id int NOT NULL REFERENCES author(id), published boolean NOT NULL DEFAULT false);
    INSERT INTO author VALUES (1, 'Ada'), (2, 'Brian');
    INSERT INTO article VALUES (10, 'Notes', 1, true), (11, 'Draft', 1, false);
    CREATE FUNCTION search_authors(search text) RETURNS SETOF author STABLE LANGUAGE sql AS $$ SELECT * FROM author WHERE name ILIKE '%' || search || '%' $$;
  `);
});

describe('metadata apply, export and diff', () => {
  it("applies a project in the well-known tool's layout unchanged, and it serves", async () => {
    const dir = project();
    const applied = await runCli(['metadata', 'apply', '--project', dir, ...flags]);
    expect(applied.stderr).toMatch(/^applying \S*metadata \(1 source\(s\), 2 table\(s\), 2 action\(s\), 1 remote schema\(s\)\) to http:\/\/127\.0\.0\.1:\d+…$/m);
    expect(applied).toMatchObject({ code: 0 });
    expect(applied.stdout).toMatch(/✔ metadata applied \(resource version \d+\)/);

    const user = { ...admin, 'x-service-role': 'user', 'x-service-user-id': '1' };
    expect(await gql('{ author(order_by: {id: asc}) { name articles { title } } }', user)).toEqual({
      data: { author: [{ name: 'Ada', articles: [{ title: 'Notes' }] }, { name: 'Brian', articles: [] }] },
    });
    expect(await gql('{ article_aggregate { aggregate { count } } }', user)).toEqual({ data: { article_aggregate: { aggregate: { count: 1 } } } });
    expect(await gql('{ search_authors(args: {search: "bri"}) { name } }', admin)).toEqual({ data: { search_authors: [{ name: 'Brian' }] } });
    expect(await gql('{ hello(name: "cli") }', admin)).toEqual({ data: { hello: 'hello cli' } });
    const fields = await gql('{ __schema { queryType { fields { name } } mutationType { fields { name } } } }', admin);
    expect(fields.data.__schema.queryType.fields.map((f: { name: string }) => f.name)).toContain('articleWordCount');
    expect(fields.data.__schema.mutationType.fields.map((f: { name: string }) => f.name)).toEqual(expect.arrayContaining(['login', 'update_author', 'delete_author']));
    const rest = await fetch(`${fx.engine.url}/api/rest/authors/2`, { headers: admin });
    expect(await rest.json()).toEqual({ author_by_pk: { id: 2, name: 'Brian' } });
    const staff = await gql('{ author(where: {id: {_eq: 1}}) { name } }', { ...admin, 'x-service-role': 'staff', 'x-service-user-id': '1' });
    expect(staff).toEqual({ data: { author: [{ name: 'Ada' }] } });

    const exported = (await fx.engine.metadata({ type: 'export_metadata', args: {} }, admin)).body;
    expect(exported.cron_triggers[0]).toMatchObject({ name: 'yearly-report', schedule: '0 0 1 1 *' });
    expect(exported.sources[0].tables[0].event_triggers[0]).toMatchObject({ name: 'article_published' });
    expect(exported.actions.find((a: { name: string }) => a.name === 'login').definition).toMatchObject({ type: 'mutation', output_type: 'LoginOutput', arguments: [{ name: 'credentials', type: 'LoginInput!' }] });
    expect(exported.custom_types.objects[1]).toMatchObject({ name: 'WordCount', description: 'How long an article is', relationships: [{ name: 'article' }] });
  });

  it('export, apply, export: the same files; diff shows nothing, then a one-file change', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-files-'));
    const first = await runCli(['metadata', 'export', '--project', dir, '--output', 'json', ...flags]);
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout).files).toEqual(expect.arrayContaining(['version.yaml', 'databases/databases.yaml', 'databases/default/tables/tables.yaml', 'databases/default/tables/public_author.yaml', 'actions.graphql', 'actions.yaml', 'remote_schemas.yaml', 'graphql_schema_introspection.yaml']));
    const before = snapshot(join(dir, 'metadata'));
    expect(before.get('databases/default/tables/tables.yaml')).toBe('- "!include public_article.yaml"\n- "!include public_author.yaml"\n');
    expect(before.get('databases/databases.yaml')).toContain('  tables: "!include default/tables/tables.yaml"\n  functions: "!include default/functions/functions.yaml"\n');
    expect(before.get('databases/default/functions/public_search_authors.yaml')).toBe('function:\n  schema: public\n  name: search_authors\n');

    expect((await runCli(['metadata', 'apply', '--project', dir, ...flags])).code).toBe(0);
    expect((await runCli(['metadata', 'export', '--project', dir, ...flags])).code).toBe(0);
    expect(snapshot(join(dir, 'metadata'))).toEqual(before);
    expect((await runCli(['metadata', 'diff', '--project', dir, ...flags])).stdout).toBe('✔ no difference\n');

    const grant = { type: 'pg_drop_delete_permission', args: { table: 'author', role: 'user' } };
    expect((await fx.engine.metadata(grant, admin)).status).toBe(200);
    const diff = await runCli(['metadata', 'diff', '--project', dir, '--output', 'json', ...flags]);
    const answer = JSON.parse(diff.stdout);
    expect(answer.changed).toEqual(['databases/default/tables/public_author.yaml']);
    expect(answer.diff).toContain('--- server/databases/default/tables/public_author.yaml\n+++ project/databases/default/tables/public_author.yaml\n');
    expect(answer.diff).toMatch(/^\+delete_permissions:$/m);
  });

  it('refuses to apply over a change made on the server since the export', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-files-'));
    expect((await runCli(['metadata', 'export', '--project', dir, ...flags])).code).toBe(0);
    expect((await fx.engine.metadata({ type: 'pg_create_select_permission', args: { table: 'author', role: 'viewer', permission: { columns: ['id'], filter: {} } } }, admin)).status).toBe(200);
    const version = await resourceVersion();
    const refused = await runCli(['metadata', 'apply', '--project', dir, ...flags]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("error: the engine's metadata changed since this project last exported or applied it");
    expect(await resourceVersion()).toBe(version);
    // A fresh export takes the change; applying it then succeeds.
    expect((await runCli(['metadata', 'export', '--project', dir, ...flags])).code).toBe(0);
    expect((await runCli(['metadata', 'apply', '--project', dir, ...flags])).code).toBe(0);
  });

  it('bad YAML, a missing or looping include or a bad actions.graphql: one message naming the file, exit 1, nothing changed; a tagged !include reads', async () => {
    const version = await resourceVersion();
    const tables = 'metadata/databases/default/tables';

    const bad = project();
    writeFileSync(join(bad, tables, 'public_author.yaml'), 'table:\n  name: author\n  schema: [public\n');
    const badRun = await runCli(['metadata', 'apply', ...flags], { cwd: bad });
    expect(badRun.code).toBe(1);
    expect(badRun.stderr.trim().split('\n')).toHaveLength(1);
    expect(badRun.stderr).toMatch(new RegExp(`^error: ${tables}/public_author\\.yaml: .*line \\d+, column \\d+`));

    const missing = project();
    unlinkSync(join(missing, tables, 'public_article.yaml'));
    const missingRun = await runCli(['metadata', 'apply', ...flags], { cwd: missing });
    expect(missingRun.code).toBe(1);
    expect(missingRun.stderr).toBe(`error: ${tables}/tables.yaml:1: !include public_article.yaml: no such file (${tables}/public_article.yaml)\n`);

    const sdl = project();
    writeFileSync(join(sdl, 'metadata/actions.graphql'), 'type Mutation {\n  login(: LoginOutput\n}\n');
    const sdlRun = await runCli(['metadata', 'apply', ...flags], { cwd: sdl });
    expect(sdlRun.code).toBe(1);
    expect(sdlRun.stderr).toMatch(/^error: metadata\/actions\.graphql:2:\d+: Syntax Error/);

    // The engine refuses a document naming a table that does not exist: nothing applied.
    const unknown = project();
    writeFileSync(join(unknown, tables, 'public_author.yaml'), 'table:\n  name: nobody\n  schema: public\n');
    const unknownRun = await runCli(['metadata', 'apply', ...flags], { cwd: unknown });
    expect(unknownRun.code).toBe(1);
    expect(unknownRun.stderr).toMatch(/^error: cannot continue due to inconsistent metadata .*: table .*nobody.*: .+$/m);
    expect(unknownRun.stderr.trim().split('\n').filter((l) => l.startsWith('error'))).toHaveLength(1);

    const looping = project();
    writeFileSync(join(looping, tables, 'public_article.yaml'), 'table: !include public_article.yaml\n');
    const loopRun = await runCli(['metadata', 'apply', ...flags], { cwd: looping });
    expect(loopRun).toMatchObject({ code: 1, stderr: `error: ${tables}/public_article.yaml:1: !include public_article.yaml: the file includes itself\n` });

    expect(await resourceVersion()).toBe(version);
    for (const d of [bad, missing, sdl, unknown, looping]) rmSync(d, { recursive: true, force: true });

    // `!include` as a YAML tag reads as the quoted string the well-known tool writes.
    const tagged = project();
    writeFileSync(join(tagged, tables, 'tables.yaml'), '- !include public_article.yaml\n- !include public_author.yaml\n');
    expect((await runCli(['metadata', 'apply', ...flags], { cwd: tagged })).code).toBe(0);
  });

  it("applies the version 2 layout (tables.yaml at the top, for the default source) and a single metadata.yaml", async () => {
    const v2 = mkdtempSync(join(tmpdir(), 'cli-files-'));
    mkdirSync(join(v2, 'metadata'));
    writeFileSync(join(v2, 'metadata/version.yaml'), 'version: 2\n');
    writeFileSync(join(v2, 'metadata/tables.yaml'), '- table:\n    schema: public\n    name: author\n  select_permissions:\n    - role: reader\n      permission:\n        columns: [name]\n        filter: {}\n');
    writeFileSync(join(v2, 'metadata/functions.yaml'), '[]\n');
    writeFileSync(join(v2, 'metadata/remote_schemas.yaml'), '[]\n');
    expect((await runCli(['metadata', 'apply', '--project', v2, ...flags])).code).toBe(0);
    expect(await gql('{ author(order_by: {name: asc}) { name } }', { ...admin, 'x-service-role': 'reader' })).toEqual({ data: { author: [{ name: 'Ada' }, { name: 'Brian' }] } });

    const single = mkdtempSync(join(tmpdir(), 'cli-files-'));
    mkdirSync(join(single, 'metadata'));
    writeFileSync(join(single, 'metadata/metadata.yaml'), 'version: 2\ntables:\n  - table: {schema: public, name: article}\n');
    expect((await runCli(['metadata', 'apply', '--project', single, ...flags])).code).toBe(0);
    const tables = (await fx.engine.metadata({ type: 'export_metadata', args: {} }, admin)).body.sources[0].tables;
    expect(tables).toEqual([{ table: { schema: 'public', name: 'article' } }]);
  });
});
