/**
 * Reading a metadata directory into the document `replace_metadata` takes: the version 3
 * layout (layout.ts), the version 2 one (`tables.yaml`, `functions.yaml` and the other
 * sections at the top, for the `default` source), or a single `metadata.yaml`/`metadata.json`.
 * `!include <file>`, as the quoted string the well-known tool writes or as a YAML tag, is
 * replaced by that file's content, read relative to the including file, at any depth.
 * `{{ENV}}` templates are left as they are: the engine resolves them, as the well-known
 * engine's server does (its tool does not).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { LineCounter, parseDocument, visit, type ScalarTag } from 'yaml';
import { CliError } from '../errors.js';
import { actionsFromFiles } from './actions-sdl.js';
import { includedFile, includeOf, isEmpty, type JsonMap } from './yaml-text.js';

/** The `!include` tag resolves to the string form, so both are handled alike. */
const includeTag: ScalarTag = { tag: '!include', resolve: (s: string) => includeOf(s) };

/** A path as the user knows it: relative to the working directory when under it. */
export function shown(file: string): string {
  const r = relative(process.cwd(), file);
  return r === '' || r.startsWith('..') ? file : r;
}

/** A YAML file's value, its `!include`s replaced; `chain` is the files including it (for cycles). */
function loadYaml(file: string, chain: string[] = []): unknown {
  const lineCounter = new LineCounter();
  const doc = parseDocument(readFileSync(file, 'utf8'), { lineCounter, customTags: [includeTag], uniqueKeys: true, prettyErrors: true });
  const [bad] = doc.errors;
  if (bad) throw new CliError(`${shown(file)}: ${bad.message.split('\n')[0]!.replace(/:$/, '')}`);
  visit(doc, {
    Scalar(_key, node) {
      const target = includedFile(node.value);
      if (target === undefined) return undefined;
      const line = node.range ? lineCounter.linePos(node.range[0]).line : 0;
      const path = resolve(dirname(file), target);
      if (!existsSync(path) || !statSync(path).isFile()) throw new CliError(`${shown(file)}:${line}: !include ${target}: no such file (${shown(path)})`);
      if (chain.includes(path) || path === file) throw new CliError(`${shown(file)}:${line}: !include ${target}: the file includes itself`);
      return doc.createNode(loadYaml(path, [...chain, file]));
    },
  });
  return doc.toJS();
}

function loadIfThere(file: string): unknown {
  return existsSync(file) ? loadYaml(file) : undefined;
}

/** The metadata document a directory holds. */
export function readMetadataDir(dir: string): JsonMap {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new CliError(`${shown(dir)}: no metadata directory (make one with "init" or "metadata export")`);
  for (const single of ['metadata.yaml', 'metadata.json']) {
    const value = loadIfThere(join(dir, single));
    if (value !== undefined) return asMap(value, join(dir, single));
  }
  const versionFile = join(dir, 'version.yaml');
  const stated = (asMap(loadIfThere(versionFile) ?? {}, versionFile) as { version?: unknown }).version;
  const version = stated ?? (existsSync(join(dir, 'databases')) ? 3 : 2);
  if (version !== 2 && version !== 3) throw new CliError(`${shown(versionFile)}: "version" must be 2 or 3, got ${JSON.stringify(version)}`);
  const document: JsonMap = { version };
  if (version === 3) document.sources = loadIfThere(join(dir, 'databases', 'databases.yaml')) ?? [];
  for (const entry of readdirSync(dir).sort()) {
    const m = /^(.+)\.yaml$/.exec(entry);
    if (!m || entry === 'version.yaml' || entry === 'actions.yaml' || !statSync(join(dir, entry)).isFile()) continue;
    const value = loadYaml(join(dir, entry));
    if (!isEmpty(value)) document[m[1]!] = value;
  }
  const actionsYaml = join(dir, 'actions.yaml');
  const actionsSdl = join(dir, 'actions.graphql');
  if (existsSync(actionsYaml) || existsSync(actionsSdl)) {
    const yaml = asMap(loadIfThere(actionsYaml) ?? {}, actionsYaml);
    const sdl = existsSync(actionsSdl) ? readFileSync(actionsSdl, 'utf8') : '';
    const { actions, custom_types } = actionsFromFiles(yaml, sdl, { yaml: shown(actionsYaml), graphql: shown(actionsSdl) });
    if (actions.length > 0) document.actions = actions;
    if (Object.values(custom_types).some((l) => !isEmpty(l))) document.custom_types = custom_types;
  }
  return document;
}

function asMap(value: unknown, file: string): JsonMap {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new CliError(`${shown(file)}: expected a mapping`);
  return value as JsonMap;
}
