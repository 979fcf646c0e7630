/**
 * The `metadata` commands between the project's files and the engine: `export` (the engine's
 * metadata written as the version 3 directory), `apply` (the directory sent as one
 * `replace_metadata`, refused whole when anything in it is wrong or inconsistent, and refused
 * as a conflict when the engine's metadata changed since this checkout last exported or
 * applied it) and `diff` (what `apply` would change, as a unified diff of files).
 */
import type { Command } from 'commander';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { action, CliError, type CommandContext } from '../command.js';
import type { EngineClient } from '../engine-client.js';
import { listFiles, writeFiles } from '../project-dir/files.js';
import { metadataFiles } from '../project-dir/layout.js';
import { readMetadataDir, shown } from '../project-dir/read.js';
import type { JsonMap } from '../project-dir/yaml-text.js';
import { knownResourceVersion, rememberResourceVersion } from '../project-state.js';
import { nameOf, type InconsistentObject } from './metadata-server.js';

interface Exported {
  resource_version: number;
  metadata: JsonMap;
}

const exportFromEngine = (engine: EngineClient) => engine.metadata<Exported>('export_metadata', {}, { version: 2 });

/** A short account of a document for the progress line. */
function summary(doc: JsonMap): string {
  const sources = (doc.sources ?? []) as JsonMap[];
  const tables = sources.reduce((n, s) => n + ((s.tables as unknown[] | undefined)?.length ?? 0), (doc.tables as unknown[] | undefined)?.length ?? 0);
  return `${sources.length} source(s), ${tables} table(s), ${(doc.actions as unknown[] | undefined)?.length ?? 0} action(s), ${(doc.remote_schemas as unknown[] | undefined)?.length ?? 0} remote schema(s)`;
}

/** Replaces the engine's metadata with the project's directory; the resource version it is at after. */
export async function applyMetadata({ project, engine, output }: CommandContext): Promise<number> {
  const document = readMetadataDir(project.metadataDir);
  const known = knownResourceVersion(project);
  output.info(`applying ${shown(project.metadataDir)} (${summary(document)}) to ${project.endpoint}…`);
  try {
    await engine.metadata('replace_metadata', { allow_inconsistent_metadata: false, metadata: document }, { version: 2, ...(known === undefined ? {} : { resource_version: known }) });
  } catch (e) {
    const detail = e instanceof CliError ? (e.detail as { code?: string; internal?: unknown } | undefined) : undefined;
    if (e instanceof CliError && Array.isArray(detail?.internal)) {
      // The engine refuses a document leaving objects inconsistent: say which and why.
      const objects = (detail.internal as InconsistentObject[]).map((o) => `${o.type ?? 'object'} ${nameOf(o)}: ${o.reason ?? ''}`);
      throw new CliError(`${e.message}: ${objects.join('; ')}`, e.exitCode, e.detail);
    }
    if (e instanceof CliError && detail?.code === 'conflict') {
      throw new CliError(
        `the engine's metadata changed since this project last exported or applied it (resource version ${known}): nothing was applied. ` +
          `See the changes with "metadata diff", take them with "metadata export", or delete .service-graphql/state.json to overwrite them.`,
        undefined,
        e.detail,
      );
    }
    throw e;
  }
  const after = await exportFromEngine(engine);
  rememberResourceVersion(project, after.resource_version);
  return after.resource_version;
}

/** Unified diffs, file by file, from the server's export (`a/`) to the project's files (`b/`). */
function diffDirs(serverDir: string, projectDir: string): { changed: string[]; text: string } {
  const paths = [...new Set([...listFiles(serverDir), ...(existsSync(projectDir) ? listFiles(projectDir) : [])])].sort();
  const changed: string[] = [];
  let text = '';
  for (const path of paths) {
    const a = join(serverDir, path);
    const b = join(projectDir, path);
    const same = existsSync(a) && existsSync(b) && readFileSync(a).equals(readFileSync(b));
    if (same) continue;
    changed.push(path);
    const run = spawnSync('diff', ['-u', '--label', `server/${path}`, '--label', `project/${path}`, existsSync(a) ? a : '/dev/null', existsSync(b) ? b : '/dev/null'], { encoding: 'utf8' });
    if (run.error || (run.status !== 0 && run.status !== 1)) throw new CliError(`diff failed: ${run.error?.message ?? run.stderr}`);
    text += run.stdout;
  }
  return { changed, text };
}

export function registerMetadataFileCommands(metadata: Command): void {
  metadata
    .command('export')
    .description("write the engine's metadata to the project's metadata directory (version 3 layout)")
    .action(
      action(async ({ project, engine, output }) => {
        const { resource_version, metadata: document } = await exportFromEngine(engine);
        const files = metadataFiles(document);
        writeFiles(project.metadataDir, files);
        rememberResourceVersion(project, resource_version);
        output.result({ resource_version, directory: project.metadataDir, files: [...files.keys()] }, output.success(`metadata exported to ${shown(project.metadataDir)} (resource version ${resource_version})`));
      }),
    );

  metadata
    .command('apply')
    .description("replace the engine's metadata with the project's metadata directory")
    .action(
      action(async (ctx) => {
        const version = await applyMetadata(ctx);
        ctx.output.result({ applied: true, resource_version: version }, ctx.output.success(`metadata applied (resource version ${version})`));
      }),
    );

  metadata
    .command('diff')
    .description("show what apply would change: the engine's metadata as exported against the project's files")
    .action(
      action(async ({ project, engine, output }) => {
        const { metadata: document } = await exportFromEngine(engine);
        const tmp = mkdtempSync(join(tmpdir(), 'service-graphql-diff-'));
        try {
          writeFiles(tmp, metadataFiles(document));
          const { changed, text } = diffDirs(tmp, project.metadataDir);
          output.result({ identical: changed.length === 0, changed, diff: text }, changed.length === 0 ? output.success('no difference') : text.trimEnd());
        } finally {
          rmSync(tmp, { recursive: true, force: true });
        }
      }),
    );
}
