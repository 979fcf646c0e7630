/**
 * Which operation names each administration endpoint accepts. `/v1/query` is the
 * deprecated API: the same operations without the backend prefix (spec "Deprecated
 * schema/metadata API").
 */
import type { AdminEndpoint } from '../../protocol/messages.js';
import { isObject } from '../../util/decode.js';
import type { Command } from './context.js';
import {
  clearMetadata,
  dropInconsistentMetadata,
  dumpInternalState,
  exportMetadata,
  getInconsistentMetadata,
  reloadMetadata,
  replaceMetadata,
  type EnvelopeVersion,
} from './manage.js';
import { DML_COMMANDS } from './dml.js';
import { createRestEndpoint, dropRestEndpoint } from './rest-endpoints.js';
import { addHostToTlsAllowlist, dropHostFromTlsAllowlist } from './network.js';
import { addCollectionToAllowlist, dropCollectionFromAllowlist, updateScopeOfCollectionInAllowlist } from './allowlist.js';
import { addQueryToCollection, createQueryCollection, dropQueryCollection, dropQueryFromCollection, renameQueryCollection } from './query-collections.js';
import { trackFunction, untrackFunction } from './functions.js';
import { runSqlCommand } from './run-sql.js';
import { ROLE_COMMANDS, TABLE_OBJECT_COMMANDS } from './table-object-commands.js';
import { addSource, dropSource, renameSource, updateSource } from './sources.js';
import { testWebhookTransformCommand } from './webhook-transform.js';
import { setGenericFederationConfig, setTableCustomFields, setTableCustomization, setTableIsEnum, trackTable, untrackTable } from './tables.js';

/** Commands that read only: answered without taking the metadata lock. */
export const READ_ONLY = new Set(['export_metadata', 'get_inconsistent_metadata', 'dump_internal_state', 'test_webhook_transform']);

/** Operations whose envelope may carry `version`. */
export const VERSIONED = new Set(['export_metadata', 'replace_metadata']);

const TABLE_COMMANDS = {
  track_table: trackTable,
  untrack_table: untrackTable,
  set_table_is_enum: setTableIsEnum,
  set_table_customization: setTableCustomization,
  set_generic_federation_config: setGenericFederationConfig,
  track_function: trackFunction,
  untrack_function: untrackFunction,
  ...TABLE_OBJECT_COMMANDS,
} as const;

/** SQL Server's table commands (spec: track, customization, federation, relationships, permissions); no functions, enums or computed fields. */
const MSSQL_TABLE_COMMANDS: Record<string, Command> = {
  track_table: trackTable,
  untrack_table: untrackTable,
  set_table_customization: setTableCustomization,
  set_generic_federation_config: setGenericFederationConfig,
  ...Object.fromEntries(Object.entries(TABLE_OBJECT_COMMANDS).filter(([k]) => !k.endsWith('_computed_field'))),
};

/** BigQuery's (spec: track, customization, federation, manual relationships, select permissions); read-only. */
const BIGQUERY_TABLE_COMMANDS: Record<string, Command> = {
  track_table: trackTable,
  untrack_table: untrackTable,
  set_table_customization: setTableCustomization,
  set_generic_federation_config: setGenericFederationConfig,
  ...Object.fromEntries(Object.entries(TABLE_OBJECT_COMMANDS).filter(([k]) => !k.endsWith('_computed_field') && !/_(insert|update|delete)_permission$/.test(k))),
};

const mapValues = (commands: Record<string, Command>, f: (c: Command) => Command) => Object.fromEntries(Object.entries(commands).map(([k, c]) => [k, f(c)]));

/** A table named by a bare string is in `schema` (SQL Server's `dbo`): in the args and in a relationship's `using`. */
function inSchema(schema: string) {
  const qualify = (o: Record<string, unknown>, key: string): Record<string, unknown> => (typeof o[key] === 'string' ? { ...o, [key]: { schema, name: o[key] } } : o);
  const inner = (o: Record<string, unknown>, key: string, tableKey: string) => (isObject(o[key]) ? { ...o, [key]: qualify(o[key] as Record<string, unknown>, tableKey) } : o);
  return (command: Command): Command =>
    (ctx, args, path) => {
      if (!isObject(args)) return command(ctx, args, path);
      let out = qualify(args, 'table');
      if (isObject(out.using)) out = { ...out, using: inner(inner(out.using, 'foreign_key_constraint_on', 'table'), 'manual_configuration', 'remote_table') };
      return command(ctx, out, path);
    };
}

function prefixed(prefix: string, commands: Record<string, Command>): Record<string, Command> {
  return Object.fromEntries(Object.entries(commands).map(([k, v]) => [`${prefix}_${k}`, v]));
}

function shared(version: EnvelopeVersion): Record<string, Command> {
  return {
    export_metadata: exportMetadata(version),
    replace_metadata: replaceMetadata(version),
    reload_metadata: reloadMetadata,
    clear_metadata: clearMetadata,
    get_inconsistent_metadata: getInconsistentMetadata,
    drop_inconsistent_metadata: dropInconsistentMetadata,
    dump_internal_state: dumpInternalState,
    ...ROLE_COMMANDS,
    create_query_collection: createQueryCollection,
    rename_query_collection: renameQueryCollection,
    drop_query_collection: dropQueryCollection,
    add_query_to_collection: addQueryToCollection,
    drop_query_from_collection: dropQueryFromCollection,
    add_collection_to_allowlist: addCollectionToAllowlist,
    drop_collection_from_allowlist: dropCollectionFromAllowlist,
    update_scope_of_collection_in_allowlist: updateScopeOfCollectionInAllowlist,
    create_rest_endpoint: createRestEndpoint,
    drop_rest_endpoint: dropRestEndpoint,
  };
}

function commandsFor(endpoint: AdminEndpoint, version: EnvelopeVersion): Record<string, Command> {
  if (endpoint === 'v1/metadata') {
    return {
          ...shared(version),
          pg_add_source: addSource('postgres'),
          citus_add_source: addSource('citus'),
          pg_update_source: updateSource('postgres'),
          citus_update_source: updateSource('citus'),
          pg_drop_source: dropSource,
          citus_drop_source: dropSource,
          rename_source: renameSource,
          test_webhook_transform: testWebhookTransformCommand,
          add_host_to_tls_allowlist: addHostToTlsAllowlist,
          drop_host_from_tls_allowlist: dropHostFromTlsAllowlist,
          ...prefixed('pg', TABLE_COMMANDS),
          ...prefixed('citus', TABLE_COMMANDS),
          mssql_add_source: addSource('mssql'),
          mssql_update_source: updateSource('mssql'),
          mssql_drop_source: dropSource,
          ...prefixed('mssql', mapValues(MSSQL_TABLE_COMMANDS, inSchema('dbo'))),
          bigquery_add_source: addSource('bigquery'),
          bigquery_update_source: updateSource('bigquery'),
          bigquery_drop_source: dropSource,
          ...prefixed('bigquery', BIGQUERY_TABLE_COMMANDS),
    };
  }
  if (endpoint === 'v1/query') {
    return { ...shared(version), ...TABLE_COMMANDS, ...DML_COMMANDS, set_table_custom_fields: setTableCustomFields, run_sql: runSqlCommand };
  }
  return { ...DML_COMMANDS, run_sql: runSqlCommand };
}

const tables = new Map<string, Record<string, Command>>();

export function lookupCommand(endpoint: AdminEndpoint, type: string, version: EnvelopeVersion): Command | undefined {
  const key = `${endpoint}|${version}`;
  let table = tables.get(key);
  if (!table) {
    table = commandsFor(endpoint, version);
    tables.set(key, table);
  }
  return Object.hasOwn(table, type) ? table[type] : undefined;
}
