/**
 * Which operation names each administration endpoint accepts. `/v1/query` is the
 * deprecated API: the same operations without the backend prefix (spec "Deprecated
 * schema/metadata API").
 */
import type { AdminEndpoint } from '../../../protocol/messages.js';
import { isObject } from '../../../util/decode.js';
import { badRequest, parseFailed, type ApiError } from '../../../errors/admin.js';
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
import { addRemoteSchema, introspectRemoteSchema, reloadRemoteSchema, removeRemoteSchema, updateRemoteSchema } from './remote-schemas.js';
import { addRemoteSchemaPermissions, dropRemoteSchemaPermissions } from './remote-schema-permissions.js';
import { DML_COMMANDS } from './dml.js';
import { createAction, createActionPermission, dropAction, dropActionPermission, setCustomTypesCommand, updateAction } from './actions.js';
import { createRestEndpoint, dropRestEndpoint } from './rest-endpoints.js';
import { addHostToTlsAllowlist, dropHostFromTlsAllowlist } from './network.js';
import { removeMetricsConfig, setMetricsConfigCommand } from './metrics-config.js';
import { setOpenTelemetryConfig, setOpenTelemetryStatus } from './opentelemetry.js';
import { removeApiLimits, setApiLimitsCommand } from './api-limits.js';
import { addCollectionToAllowlist, dropCollectionFromAllowlist, updateScopeOfCollectionInAllowlist } from './allowlist.js';
import { addQueryToCollection, createQueryCollection, dropQueryCollection, dropQueryFromCollection, renameQueryCollection } from './query-collections.js';
import { trackFunction, untrackFunction } from './functions.js';
import { runSqlCommand } from './run-sql.js';
import { getCatalogState, setCatalogState } from './catalog-state.js';
import { ROLE_COMMANDS, TABLE_OBJECT_COMMANDS } from './table-object-commands.js';
import { addComputedField, addComputedFieldWith, dropComputedField } from './computed-fields.js';
import { bigqueryComputedFieldDefinition } from '../../../metadata/computed-fields.js';
import { addSource, dropSource, renameSource, updateSource } from './sources.js';
import { setQueryTags } from './query-tags.js';
import { testWebhookTransformCommand } from './webhook-transform.js';
import {
  createCronTrigger,
  createScheduledEvent,
  deleteCronTrigger,
  deleteScheduledEvent,
  getCronTriggers,
  getScheduledEventInvocations,
  getScheduledEvents,
} from './scheduled-triggers.js';
import {
  cleanupEventTriggerLogs,
  createEventTrigger,
  deleteEventTrigger,
  invokeEventTrigger,
  redeliverEvent,
  setEventTriggerCleanupsPaused,
} from './event-triggers.js';
import { setGenericFederationConfig, setTableCustomFields, setTableCustomization, setTableIsEnum, trackTable, untrackTable } from './tables.js';

/** Commands that read only: answered without taking the metadata lock. */
export const READ_ONLY = new Set([
  'export_metadata',
  'get_inconsistent_metadata',
  'dump_internal_state',
  'test_webhook_transform',
  'get_cron_triggers',
  'get_scheduled_events',
  'get_scheduled_event_invocations',
  'get_catalog_state',
  'introspect_remote_schema',
]);

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

/** The event trigger operations, named as `/v1/query` names them; `/v1/metadata` adds the backend prefix. */
const EVENT_TRIGGER_COMMANDS = {
  create_event_trigger: createEventTrigger,
  delete_event_trigger: deleteEventTrigger,
  redeliver_event: redeliverEvent,
  invoke_event_trigger: invokeEventTrigger,
} as const;

/** SQL Server's table commands (spec: track, customization, federation, relationships, remote relationships, permissions); no functions, enums or computed fields. */
const MSSQL_TABLE_COMMANDS: Record<string, Command> = {
  track_table: trackTable,
  untrack_table: untrackTable,
  set_table_customization: setTableCustomization,
  set_generic_federation_config: setGenericFederationConfig,
  ...Object.fromEntries(Object.entries(TABLE_OBJECT_COMMANDS).filter(([k]) => !k.endsWith('_computed_field'))),
};

/** BigQuery's (spec: track, customization, federation, manual and remote relationships, select permissions, computed fields of its own form); read-only. */
const BIGQUERY_TABLE_COMMANDS: Record<string, Command> = {
  track_table: trackTable,
  untrack_table: untrackTable,
  set_table_customization: setTableCustomization,
  set_generic_federation_config: setGenericFederationConfig,
  ...Object.fromEntries(Object.entries(TABLE_OBJECT_COMMANDS).filter(([k]) => !/_(insert|update|delete)_permission$/.test(k))),
  add_computed_field: addComputedFieldWith(bigqueryComputedFieldDefinition),
};

/**
 * The older unprefixed names of PostgreSQL commands that the well-known engine still takes on
 * `/v1/metadata` (its clients and scripts send them), on the source each names (default `default`).
 */
const UNPREFIXED_PG_COMMANDS: Record<string, Command> = {
  set_table_is_enum: setTableIsEnum,
  add_computed_field: addComputedField,
  drop_computed_field: dropComputedField,
  ...EVENT_TRIGGER_COMMANDS,
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
    add_remote_schema: addRemoteSchema,
    update_remote_schema: updateRemoteSchema,
    remove_remote_schema: removeRemoteSchema,
    reload_remote_schema: reloadRemoteSchema,
    introspect_remote_schema: introspectRemoteSchema,
    add_remote_schema_permissions: addRemoteSchemaPermissions,
    drop_remote_schema_permissions: dropRemoteSchemaPermissions,
    create_action: createAction,
    update_action: updateAction,
    drop_action: dropAction,
    create_action_permission: createActionPermission,
    drop_action_permission: dropActionPermission,
    set_custom_types: setCustomTypesCommand,
    create_rest_endpoint: createRestEndpoint,
    drop_rest_endpoint: dropRestEndpoint,
    create_cron_trigger: createCronTrigger,
    delete_cron_trigger: deleteCronTrigger,
    get_cron_triggers: getCronTriggers,
    create_scheduled_event: createScheduledEvent,
    delete_scheduled_event: deleteScheduledEvent,
    get_scheduled_events: getScheduledEvents,
    get_scheduled_event_invocations: getScheduledEventInvocations,
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
          set_query_tags: setQueryTags,
          get_catalog_state: getCatalogState,
          set_catalog_state: setCatalogState,
          test_webhook_transform: testWebhookTransformCommand,
          add_host_to_tls_allowlist: addHostToTlsAllowlist,
          drop_host_from_tls_allowlist: dropHostFromTlsAllowlist,
          set_metrics_config: setMetricsConfigCommand,
          remove_metrics_config: removeMetricsConfig,
          set_api_limits: setApiLimitsCommand,
          remove_api_limits: removeApiLimits,
          set_opentelemetry_config: setOpenTelemetryConfig,
          set_opentelemetry_status: setOpenTelemetryStatus,
          cleanup_event_trigger_logs: cleanupEventTriggerLogs,
          pause_event_trigger_cleanups: setEventTriggerCleanupsPaused(true),
          resume_event_trigger_cleanups: setEventTriggerCleanupsPaused(false),
          ...prefixed('pg', { ...TABLE_COMMANDS, ...EVENT_TRIGGER_COMMANDS }),
          ...UNPREFIXED_PG_COMMANDS,
          ...prefixed('citus', { ...TABLE_COMMANDS, ...EVENT_TRIGGER_COMMANDS }),
          mssql_add_source: addSource('mssql'),
          mssql_update_source: updateSource('mssql'),
          mssql_drop_source: dropSource,
          ...prefixed('mssql', mapValues({ ...MSSQL_TABLE_COMMANDS, ...EVENT_TRIGGER_COMMANDS }, inSchema('dbo'))),
          bigquery_add_source: addSource('bigquery'),
          bigquery_update_source: updateSource('bigquery'),
          bigquery_drop_source: dropSource,
          ...prefixed('bigquery', BIGQUERY_TABLE_COMMANDS),
    };
  }
  if (endpoint === 'v1/query') {
    return { ...shared(version), ...TABLE_COMMANDS, ...EVENT_TRIGGER_COMMANDS, ...DML_COMMANDS, set_table_custom_fields: setTableCustomFields, run_sql: runSqlCommand };
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

/** The backend prefixes of `/v1/metadata` operation names (`pg_track_table`). */
const BACKEND_PREFIXES = ['pg', 'citus', 'mssql', 'bigquery'];

/**
 * An operation no endpoint table has. `/v1/metadata` answers as the well-known engine's parser
 * does: a parse failure of the envelope naming the command and its backend prefix; the
 * deprecated endpoints name the endpoint at `$.type`.
 */
export function unknownCommand(endpoint: AdminEndpoint, type: string, path: string): ApiError {
  if (endpoint !== 'v1/metadata') return badRequest('not-supported', `unknown operation type ${JSON.stringify(type)} for /${endpoint}`, `${path}.type`);
  const cut = type.indexOf('_');
  const prefix = cut < 0 ? type : type.slice(0, cut);
  if (!BACKEND_PREFIXES.includes(prefix)) return parseFailed(`unknown metadata command ${JSON.stringify(type)}; ${JSON.stringify(prefix)} was not recognized as a valid backend name`, path);
  return parseFailed(`unknown metadata command ${JSON.stringify(type.slice(cut + 1))} for backend ${JSON.stringify(prefix)}`, path);
}
