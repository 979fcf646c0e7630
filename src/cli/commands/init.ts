/**
 * `init [dir]`: a new project, as the well-known tool makes one: `config.yaml` (version 3, the
 * endpoint given by `--endpoint` or the environment), an empty version 3 metadata directory,
 * `migrations/` and `seeds/`, and a `.gitignore` for what is local to a checkout (`.env`, the
 * tool's state). An existing directory that is not empty is refused.
 */
import type { Command } from 'commander';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { stringify } from 'yaml';
import { action, CliError } from '../command.js';
import { writeFiles } from '../project-dir/files.js';
import { metadataFiles } from '../project-dir/layout.js';
import { shown } from '../project-dir/read.js';
import { CONFIG_FILE } from '../project.js';
import { STATE_DIR } from '../project-state.js';

export function registerInitCommand(program: Command): void {
  program
    .command('init [dir]')
    .description('make a new project directory (config.yaml, metadata/, migrations/, seeds/)')
    .action(
      action(async ({ project, output }, _options: unknown, dir: string | undefined) => {
        const root = resolve(project.dir, dir ?? '.');
        if (existsSync(root) && readdirSync(root).length > 0) throw new CliError(`${shown(root)} exists and is not empty: choose a new directory`);
        mkdirSync(root, { recursive: true });
        const config = { version: 3, endpoint: project.endpoint, metadata_directory: 'metadata', migrations_directory: 'migrations', seeds_directory: 'seeds' };
        writeFileSync(join(root, CONFIG_FILE), stringify(config));
        writeFiles(join(root, 'metadata'), metadataFiles({ version: 3, sources: [] }));
        for (const d of ['migrations', 'seeds']) mkdirSync(join(root, d));
        writeFileSync(join(root, '.gitignore'), `.env\n${STATE_DIR}/\n`);
        output.result({ directory: root, endpoint: project.endpoint }, output.success(`project created in ${shown(root)} for ${project.endpoint}`));
      }),
    );
}
