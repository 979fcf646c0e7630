/** pg_track_table, pg_untrack_table, pg_set_table_is_enum, pg_set_table_customization, pg_set_generic_federation_config. */
import type { CatalogTable, QualifiedName } from '../../../catalog/types.js';
import { badRequest, notExists } from '../../../errors/admin.js';
import { bool, ObjectReader, str, type JsonObject } from '../../../util/decode.js';
import { tableConfiguration } from '../../../metadata/customization.js';
import { dependencyError, dependentsOfTable } from '../../../metadata/dependencies.js';
import { cascadeDependents } from './outcomes.js';
import { enumTableProblems } from '../../../metadata/enum-table.js';
import { findTrackedFunction, functionsReturning } from '../../../metadata/functions.js';
import { findSource, findTable, trackedTable } from '../../../metadata/lookup.js';
import { reasonMessage } from '../../../metadata/reasons.js';
import { isGraphQLName, sameTable, showTable, tableName } from '../../../metadata/names.js';
import type { SourceMetadata, TableMetadata } from '../../../metadata/types.js';
import { catalogTable } from './catalog.js';
import { SUCCESS, type Command, type CommandContext } from './context.js';

/** `table` plus `source`; the deprecated API also takes `{schema, name}` at the top level. */
function readTarget(ctx: CommandContext, r: ObjectReader): { source: SourceMetadata; table: QualifiedName } {
  const sourceName = r.withDefault('source', str, 'default');
  let table: QualifiedName;
  if (ctx.endpoint !== 'v1/metadata' && !r.has('table') && r.has('name')) {
    table = { schema: r.withDefault('schema', str, 'public'), name: r.required('name', str) };
  } else {
    table = r.required('table', tableName);
  }
  return { source: findSource(ctx.metadata, sourceName, r.path), table };
}

function federationConfig(v: unknown, path: string): JsonObject {
  const r = ObjectReader.of(v, path);
  const enable = r.required('enable', str);
  if (enable !== 'v1') throw badRequest('parse-failed', `unexpected value ${JSON.stringify(enable)}; expected "v1"`, r.at('enable'));
  r.done();
  return { enable };
}

function checkTrackable(pgTable: CatalogTable | undefined, table: QualifiedName, config: JsonObject, path: string): void {
  if (!pgTable) throw notExists(`no such table/view exists in source: ${JSON.stringify(showTable(table))}`, path);
  const badConstraints = pgTable.constraintNames.filter((n) => !isGraphQLName(n));
  if (badConstraints.length > 0) {
    throw badRequest('not-supported', `the following constraint names of table ${JSON.stringify(showTable(table))} are not valid GraphQL names: ${badConstraints.map((n) => JSON.stringify(n)).join(', ')}`, path);
  }
  if (!isGraphQLName(table.name) && config.custom_name === undefined && config.identifier === undefined) {
    throw badRequest('not-supported', `the table name ${JSON.stringify(showTable(table))} is not a valid GraphQL name; set "custom_name" in its configuration`, path);
  }
}

export const trackTable: Command = async (ctx, args, path) => {
  // The deprecated API also takes the table name alone as the arguments.
  const r = ObjectReader.of(ctx.endpoint !== 'v1/metadata' && typeof args === 'string' ? { table: args } : args, path);
  const { source, table } = readTarget(ctx, r);
  const pgTable = await catalogTable(ctx, source, table);
  const columns = pgTable ? new Set(pgTable.columns.map((c) => c.name)) : null;
  const configuration = r.optional('configuration', (v, p) => tableConfiguration(v, p, columns));
  const isEnum = r.withDefault('is_enum', bool, false);
  const federation = r.optional('generic_federation_config', federationConfig);
  r.done();

  if (trackedTable(source, table)) {
    throw badRequest('already-tracked', `view/table already tracked: ${JSON.stringify(showTable(table))}`, path);
  }
  if (findTrackedFunction(source, table)) throw badRequest('not-supported', `function with name ${JSON.stringify(showTable(table))} already exists`, path);
  checkTrackable(pgTable, table, configuration ?? {}, path);
  if (isEnum) checkEnum(pgTable!, table, path);

  const entry: TableMetadata = { table };
  if (isEnum) entry.is_enum = true;
  if (configuration && Object.keys(configuration).length > 0) entry.configuration = configuration;
  if (federation) entry.generic_federation_config = federation;
  source.tables.push(entry);
  return { metadata: ctx.metadata, response: SUCCESS };
};

export const untrackTable: Command = (ctx, args, path) => {
  const r = ObjectReader.of(args, path);
  const { source, table } = readTarget(ctx, r);
  const cascade = r.withDefault('cascade', bool, false);
  r.done();
  if (!trackedTable(source, table)) {
    throw badRequest('already-untracked', `view/table already untracked: ${JSON.stringify(showTable(table))}`, path);
  }
  const dependents = [...dependentsOfTable(ctx.metadata, source.name, table), ...functionsReturning(source, ctx.introspection(source.name), table)];
  if (dependents.length > 0 && !cascade) throw dependencyError(dependents, path);
  for (const d of dependents) d.remove(ctx.metadata);
  source.tables = source.tables.filter((t) => !sameTable(t.table, table));
  // Relationships, permissions and computed fields that used the table are found by resolution.
  return { metadata: ctx.metadata, response: SUCCESS, ...cascadeDependents(cascade, path) };
};

function checkEnum(pgTable: CatalogTable, table: QualifiedName, path: string): void {
  const problems = enumTableProblems(pgTable);
  if (problems.length > 0) {
    throw badRequest('constraint-violation', `the table ${JSON.stringify(showTable(table))} cannot be used as an enum ${reasonMessage(problems)}`, path);
  }
}

export const setTableIsEnum: Command = async (ctx, args, path) => {
  const r = ObjectReader.of(args, path);
  const { source, table } = readTarget(ctx, r);
  const isEnum = r.required('is_enum', bool);
  r.done();
  const entry = findTable(source, table, `${path}.table`);
  const pgTable = isEnum ? await catalogTable(ctx, source, table) : undefined;
  if (pgTable) {
    checkEnum(pgTable, table, path);
    entry.is_enum = true;
  } else {
    delete entry.is_enum;
  }
  return { metadata: ctx.metadata, response: SUCCESS };
};

export const setTableCustomization: Command = async (ctx, args, path) => {
  const r = ObjectReader.of(args, path);
  const { source, table } = readTarget(ctx, r);
  const pgTable = await catalogTable(ctx, source, table);
  const columns = pgTable ? new Set(pgTable.columns.map((c) => c.name)) : null;
  const configuration = r.withDefault('configuration', (v, p) => tableConfiguration(v, p, columns), {});
  r.done();
  const entry = findTable(source, table, `${path}.table`);
  if (Object.keys(configuration).length > 0) entry.configuration = configuration;
  else delete entry.configuration;
  return { metadata: ctx.metadata, response: SUCCESS };
};

/** The deprecated `set_table_custom_fields`: `custom_root_fields` and `custom_column_names` at the top level. */
export const setTableCustomFields: Command = async (ctx, args, path) => {
  const r = ObjectReader.of(args, path);
  const { source, table } = readTarget(ctx, r);
  const pgTable = await catalogTable(ctx, source, table);
  const columns = pgTable ? new Set(pgTable.columns.map((c) => c.name)) : null;
  const given: JsonObject = {};
  for (const key of ['custom_root_fields', 'custom_column_names'] as const) {
    const v = r.optional(key, (x) => x);
    if (v !== undefined) given[key] = v as JsonObject;
  }
  r.done();
  const entry = findTable(source, table, `${path}.table`);
  const kept = entry.configuration ?? {};
  const configuration = tableConfiguration({ ...given, ...(kept.custom_name ? { custom_name: kept.custom_name } : {}) }, path, columns);
  if (Object.keys(configuration).length > 0) entry.configuration = configuration;
  else delete entry.configuration;
  return { metadata: ctx.metadata, response: SUCCESS };
};

export const setGenericFederationConfig: Command = (ctx, args, path) => {
  const r = ObjectReader.of(args, path);
  const { source, table } = readTarget(ctx, r);
  const federation = r.optional('generic_federation_config', federationConfig);
  r.done();
  const entry = findTable(source, table, `${path}.table`);
  if (federation) entry.generic_federation_config = federation;
  else delete entry.generic_federation_config;
  return { metadata: ctx.metadata, response: SUCCESS };
};
