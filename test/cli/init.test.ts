/**
 * `init` run as a process: a new project (config.yaml version 3 with the endpoint, an empty
 * version 3 metadata directory, migrations/, seeds/), refused over a directory that is not
 * empty; then `metadata apply` from it, on an engine whose metadata is empty, and an export
 * giving back the same files.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listFiles } from '../../src/cli/project-dir/files.js';
import { runCli } from '../support/cli.js';
import { useEngine } from '../support/fixture.js';

const fx = useEngine({ SERVICE_GRAPHQL_ADMIN_SECRET: 'cli-init-secret' });
const secret = { SERVICE_GRAPHQL_ADMIN_SECRET: 'cli-init-secret' };

describe('init', () => {
  it('makes a project that applies to an empty engine and exports back the same files', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'cli-init-'));
    const made = await runCli(['init', 'shop', '--endpoint', fx.engine.url], { cwd: parent });
    expect(made).toMatchObject({ code: 0, stdout: `✔ project created in shop for ${fx.engine.url}\n` });
    const dir = join(parent, 'shop');
    expect(readFileSync(join(dir, 'config.yaml'), 'utf8')).toBe(`version: 3\nendpoint: ${fx.engine.url}\nmetadata_directory: metadata\nmigrations_directory: migrations\nseeds_directory: seeds\n`);
    expect(existsSync(join(dir, 'migrations'))).toBe(true);
    expect(existsSync(join(dir, 'seeds'))).toBe(true);
    const files = listFiles(join(dir, 'metadata'));
    expect(files).toEqual([
      'actions.graphql', 'actions.yaml', 'allow_list.yaml', 'api_limits.yaml', 'backend_configs.yaml', 'cron_triggers.yaml', 'databases/databases.yaml',
      'graphql_schema_introspection.yaml', 'inherited_roles.yaml', 'metrics_config.yaml', 'network.yaml', 'opentelemetry.yaml', 'query_collections.yaml',
      'remote_schemas.yaml', 'rest_endpoints.yaml', 'version.yaml',
    ]);
    const text = (f: string) => readFileSync(join(dir, 'metadata', f), 'utf8');
    expect([text('version.yaml'), text('databases/databases.yaml'), text('network.yaml'), text('actions.graphql')]).toEqual(['version: 3\n', '[]\n', '{}\n', '']);
    const before = new Map(files.map((f) => [f, text(f)]));

    // The endpoint comes from config.yaml, the secret from the environment.
    const applied = await runCli(['metadata', 'apply'], { cwd: dir, env: secret });
    expect(applied.code).toBe(0);
    const exported = (await fx.engine.metadata({ type: 'export_metadata', args: {} }, { 'x-service-admin-secret': 'cli-init-secret' })).body;
    expect(exported).toEqual({ version: 3, sources: [] });
    expect((await runCli(['metadata', 'export'], { cwd: dir, env: secret })).code).toBe(0);
    expect(new Map(listFiles(join(dir, 'metadata')).map((f) => [f, text(f)]))).toEqual(before);
  });

  it('refuses a directory that is not empty', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-init-'));
    mkdirSync(join(dir, 'kept'));
    writeFileSync(join(dir, 'kept', 'notes.txt'), 'mine');
    const refused = await runCli(['init', join(dir, 'kept'), '--output', 'json']);
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout).error).toBe(`${join(dir, 'kept')} exists and is not empty: choose a new directory`);
    expect(readFileSync(join(dir, 'kept', 'notes.txt'), 'utf8')).toBe('mine');
  });
});
