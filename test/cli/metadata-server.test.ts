/**
 * The tool's commands that only ask the engine, run as a process against a running engine:
 * `metadata inconsistency list` / `drop`, `reload`, `clear`, for people and as JSON; the global
 * options from flags, the environment, `.env` and `config.yaml`; the exit codes scripts rely on.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { useEngine } from '../support/fixture.js';
import { runCli } from '../support/cli.js';

const fx = useEngine({ SERVICE_GRAPHQL_ADMIN_SECRET: 'cli-secret-7' });
const admin = { 'x-service-admin-secret': 'cli-secret-7' };
let flags: string[];

beforeAll(async () => {
  flags = ['--endpoint', fx.engine.url, '--admin-secret', 'cli-secret-7'];
  await fx.db.sql('CREATE TABLE t (id int PRIMARY KEY)');
  expect((await fx.engine.metadata({ type: 'pg_track_table', args: { table: 't' } }, admin)).status).toBe(200);
});

describe('metadata commands that ask the engine', () => {
  it('lists no inconsistency, then the one a dropped table makes, drops it, and reloads', async () => {
    const consistent = await runCli(['metadata', 'inconsistency', 'list', ...flags]);
    expect(consistent).toMatchObject({ code: 0, stdout: '✔ the metadata is consistent\n' });

    await fx.db.sql('DROP TABLE t');
    const reloaded = await runCli(['metadata', 'reload', ...flags]);
    expect(reloaded.code).toBe(1);
    expect(reloaded.stderr).toContain('the metadata is inconsistent after the reload');

    const listed = await runCli(['md', 'ic', 'ls', '--output', 'json', ...flags]);
    expect(listed.code).toBe(0);
    const answer = JSON.parse(listed.stdout);
    expect(answer.is_consistent).toBe(false);
    expect(answer.inconsistent_objects[0]).toMatchObject({ type: 'table' });
    const table = await runCli(['metadata', 'inconsistency', 'list', ...flags]);
    expect(table.stdout.split('\n')[0]).toMatch(/^TYPE\s+NAME\s+REASON$/);

    expect((await runCli(['metadata', 'inconsistency', 'drop', ...flags])).code).toBe(0);
    expect(await runCli(['metadata', 'reload', '--output', 'yaml', ...flags])).toMatchObject({ code: 0 });
    expect((await runCli(['metadata', 'clear', ...flags])).stdout).toContain('metadata cleared');
  });

  it('takes the endpoint and secret from the environment, a .env file or config.yaml (a flag wins)', async () => {
    const project = mkdtempSync(join(tmpdir(), 'cli-project-'));
    expect((await runCli(['md', 'ic', 'ls'], { env: { SERVICE_GRAPHQL_ENDPOINT: fx.engine.url, SERVICE_GRAPHQL_ADMIN_SECRET: 'cli-secret-7' } })).code).toBe(0);
    writeFileSync(join(project, '.env'), `SERVICE_GRAPHQL_ADMIN_SECRET=cli-secret-7\n`);
    writeFileSync(join(project, 'config.yaml'), `version: 3\nendpoint: ${fx.engine.url}\n`);
    expect((await runCli(['md', 'ic', 'ls'], { cwd: project })).code).toBe(0);
    expect((await runCli(['md', 'ic', 'ls', '--project', project])).code).toBe(0);
    const wrong = await runCli(['md', 'ic', 'ls', '--project', project, '--admin-secret', 'nope']);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/^error: .+\[access-denied\]/m);
  });

  it('exits 2 on a bad command line or config.yaml, 4 when the engine cannot be reached', async () => {
    expect((await runCli(['metadata', 'nope'])).code).toBe(2);
    expect((await runCli(['--output', 'xml', 'md', 'ic', 'ls'])).code).toBe(2);
    const project = mkdtempSync(join(tmpdir(), 'cli-project-'));
    writeFileSync(join(project, 'config.yaml'), 'endpoint: [\n');
    const bad = await runCli(['md', 'ic', 'ls', '--project', project]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('config.yaml');
    const gone = await runCli(['md', 'ic', 'ls', '--endpoint', 'http://127.0.0.1:9', '--output', 'json']);
    expect(gone.code).toBe(4);
    expect(JSON.parse(gone.stdout).error).toContain('cannot reach the engine');
  });

  it('console: says how to turn the console on when the engine serves none, else gives its address', async () => {
    const none = await runCli(['console', '--no-browser', ...flags]);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('serves no console: start it with SERVICE_GRAPHQL_ENABLE_CONSOLE=true');
    const served = createServer((req, res) => res.writeHead(req.url === '/console' ? 200 : 404).end());
    await new Promise<void>((r) => served.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(served.address() as { port: number }).port}`;
    const opened = await runCli(['console', '--no-browser', '--endpoint', url, '--output', 'json']);
    served.close();
    expect(opened.code).toBe(0);
    expect(JSON.parse(opened.stdout)).toEqual({ url: `${url}/console` });
  });
});
