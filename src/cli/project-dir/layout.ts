/**
 * The version 3 metadata directory of the well-known engine's tool, one file per top-level
 * section and one per table and function, so that a change to one permission is a one-file
 * diff:
 *
 *     version.yaml                      version: 3
 *     databases/databases.yaml          the sources, `tables`/`functions` as `!include` references
 *     databases/<db>/tables/tables.yaml  - "!include <schema>_<table>.yaml"
 *     databases/<db>/tables/<schema>_<table>.yaml
 *     databases/<db>/functions/functions.yaml, <schema>_<function>.yaml
 *     actions.yaml, actions.graphql     actions and custom types (actions-sdl.ts)
 *     remote_schemas.yaml, query_collections.yaml, allow_list.yaml, rest_endpoints.yaml,
 *     cron_triggers.yaml, inherited_roles.yaml, network.yaml, api_limits.yaml,
 *     opentelemetry.yaml, metrics_config.yaml, backend_configs.yaml,
 *     graphql_schema_introspection.yaml
 *
 * Each section's file is written even when empty (`[]` or `{}`), as that tool does; a section
 * this list does not know is written to `<section>.yaml`, which reading gives back.
 */
import { actionsFiles } from './actions-sdl.js';
import { includeOf, yamlText, type JsonMap } from './yaml-text.js';

/** The sections with a file of their own, and what an empty one holds. */
const SECTIONS: readonly (readonly [string, unknown])[] = [
  ['remote_schemas', []],
  ['query_collections', []],
  ['allow_list', []],
  ['rest_endpoints', []],
  ['cron_triggers', []],
  ['inherited_roles', []],
  ['network', {}],
  ['api_limits', {}],
  ['opentelemetry', {}],
  ['metrics_config', {}],
  ['backend_configs', {}],
  ['graphql_schema_introspection', {}],
];

/** Sections kept in files other than `<section>.yaml`. */
const ELSEWHERE = new Set(['version', 'sources', 'actions', 'custom_types']);

/** A project file: its path under the metadata directory (with `/`) and its text. */
export type Files = Map<string, string>;

/** `<schema>_<name>.yaml` (`<dataset>_<name>` for BigQuery), made unique within its folder. */
function objectFileName(qualified: unknown, taken: Set<string>): string {
  const q = (typeof qualified === 'string' ? { name: qualified } : (qualified ?? {})) as JsonMap;
  const base = [q.schema ?? q.dataset, q.name].filter((p) => typeof p === 'string').join('_').replace(/[/\\\0]/g, '_');
  let file = `${base}.yaml`;
  for (let i = 2; taken.has(file); i++) file = `${base}_${i}.yaml`;
  taken.add(file);
  return file;
}

/** Writes a list of tables or functions as one file each plus the list of `!include`s; gives the list's path. */
function listFiles(files: Files, folder: string, list: JsonMap[], key: 'table' | 'function'): string {
  const taken = new Set<string>();
  const includes = list.map((entry) => {
    const file = objectFileName(entry[key], taken);
    files.set(`${folder}/${file}`, yamlText(entry));
    return includeOf(file);
  });
  const listFile = `${folder}/${folder.split('/').pop()}.yaml`;
  files.set(listFile, yamlText(includes));
  return listFile;
}

/** The files of a version 3 document (as `export_metadata` gives it). */
export function metadataFiles(metadata: JsonMap): Files {
  const files: Files = new Map();
  files.set('version.yaml', yamlText({ version: 3 }));
  const sources = ((metadata.sources ?? []) as JsonMap[]).map((s) => {
    const name = String(s.name);
    const entry: JsonMap = {};
    for (const [k, v] of Object.entries(s)) {
      if (k === 'tables') entry.tables = includeOf(listFiles(files, `databases/${name}/tables`, v as JsonMap[], 'table').slice('databases/'.length));
      else if (k === 'functions' && Array.isArray(v) && v.length > 0) entry.functions = includeOf(listFiles(files, `databases/${name}/functions`, v as JsonMap[], 'function').slice('databases/'.length));
      else if (k !== 'functions') entry[k] = v;
    }
    return entry;
  });
  files.set('databases/databases.yaml', yamlText(sources));
  const actions = actionsFiles(metadata.actions as JsonMap[] | undefined, metadata.custom_types as JsonMap | undefined);
  files.set('actions.graphql', actions.graphql);
  files.set('actions.yaml', yamlText(actions.yaml));
  for (const [section, empty] of SECTIONS) files.set(`${section}.yaml`, yamlText(metadata[section] ?? empty));
  const known = new Set(SECTIONS.map(([s]) => s));
  for (const [section, value] of Object.entries(metadata)) {
    if (!known.has(section) && !ELSEWHERE.has(section)) files.set(`${section}.yaml`, yamlText(value));
  }
  return files;
}
