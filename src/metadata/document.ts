/**
 * A whole metadata document as `replace_metadata` takes it: version 3 (sources), or the
 * older versions 1 and 2 (tables and functions at the top level, for the `default`
 * source), which are converted to version 3.
 */
import { actionsSection, setActions } from './actions.js';
import { customTypes, setCustomTypes } from './custom-types.js';
import { remoteSchemasSection, setRemoteSchemas } from './remote-schemas.js';
import { badRequest } from '../errors/admin.js';
import { changedKeysSince, produce } from '../util/draft.js';
import { indexes } from '../util/same-picks.js';
import { arrayOf, int, isObject, nonEmptyStr, ObjectReader, oneOf, type JsonObject } from '../util/decode.js';
import { sourceCustomization, tableConfiguration } from './customization.js';
import { queryTagsConfig } from './query-tags.js';
import { remoteRelationshipEntry } from './relationships.js';
import { functionEntry } from './functions.js';
import { inheritedRoleList, setInheritedRoles } from './inherited-roles.js';
import { collectionSections, setAllowlist, setQueryCollections } from './query-collections.js';
import { restEndpointSection, setRestEndpoints } from './rest-endpoints.js';
import { setTlsAllowlist, tlsAllowlistSection } from './tls-allowlist.js';
import { metricsConfigSection, setMetricsConfig } from './metrics-config.js';
import { apiLimitsSection, setApiLimits } from './api-limits.js';
import { openTelemetryConfig, setOpenTelemetry } from './opentelemetry.js';
import { showTable, tableName } from './names.js';
import { tableObjects } from './table-entry.js';
import type { BackendKind, Metadata, SourceMetadata, TableMetadata } from './types.js';
import { firstRepeat } from '../util/first-repeat.js';

const KINDS: readonly BackendKind[] = ['postgres', 'citus', 'mssql', 'bigquery'];

function table(v: unknown, path: string): TableMetadata {
  const r = ObjectReader.of(v, path);
  const t: TableMetadata = { ...(r.value as JsonObject), table: r.required('table', tableName), ...tableObjects(r) };
  // Names that become GraphQL names are checked here as their own commands check them.
  const configuration = r.optional('configuration', (x, p) => tableConfiguration(x, p, null));
  if (configuration) t.configuration = configuration;
  r.optional('remote_relationships', arrayOf(remoteRelationshipEntry));
  return t;
}

function tables(v: unknown, path: string): TableMetadata[] {
  const list = arrayOf(table)(v, path);
  // The key of `sameTable`: schema and name.
  const i = firstRepeat(list, (t) => JSON.stringify([t.table.schema, t.table.name]));
  if (i >= 0) throw badRequest('already-exists', `table ${JSON.stringify(showTable(list[i]!.table))} is listed more than once`, `${path}[${i}]`);
  return list;
}

/** What reading a document needs of a source kind's backend (`backends/backend.ts` has it): its configuration's decoder. */
interface ConfigurationReader {
  decodeConfiguration(v: unknown, path: string): JsonObject;
}
type BackendOf = (kind: BackendKind) => ConfigurationReader | undefined;

/** A source entry; its `configuration` is validated by its backend (kinds without one keep it as it is). */
const source = (backendOf: BackendOf) => (v: unknown, path: string): SourceMetadata => {
  const r = ObjectReader.of(v, path);
  const s: SourceMetadata = {
    ...(r.value as JsonObject),
    name: r.required('name', nonEmptyStr),
    kind: r.withDefault('kind', oneOf(KINDS, 'backend kind'), 'postgres'),
    tables: r.withDefault('tables', tables, []),
    functions: r.withDefault('functions', arrayOf(functionEntry), []),
    configuration: r.required('configuration', (x) => x) as JsonObject,
  };
  const backend = backendOf(s.kind);
  if (backend) s.configuration = backend.decodeConfiguration(s.configuration, r.at('configuration'));
  const customization = r.optional('customization', sourceCustomization);
  if (customization) s.customization = customization;
  const queryTags = r.optional('query_tags', queryTagsConfig);
  if (queryTags) s.query_tags = { ...queryTags };
  return s;
};

export function parseMetadataDocument(v: unknown, path: string, current: Metadata, backendOf: BackendOf): Metadata {
  const r = ObjectReader.of(v, path);
  const version = r.withDefault('version', int, r.has('sources') ? 3 : 1);
  if (version === 3) {
    const sources = r.withDefault('sources', arrayOf(source(backendOf)), []);
    const i = firstRepeat(sources, (s) => s.name);
    if (i >= 0) throw badRequest('already-exists', `source with name ${JSON.stringify(sources[i]!.name)} is listed more than once`, `${path}.sources[${i}]`);
    return withInheritedRoles({ ...(r.value as JsonObject), version: 3, sources }, r);
  }
  if (version !== 1 && version !== 2) throw badRequest('parse-failed', `unexpected metadata version ${version}`, `${path}.version`);
  // Versions 1 and 2: everything belongs to the `default` source, whose connection stays as it is.
  const { tables: tablesJson, functions, ...rest } = r.value;
  const dflt = current.sources.find((s) => s.name === 'default');
  if (!dflt) throw badRequest('not-exists', 'version 1 and 2 metadata need a source named "default"', path);
  const converted: SourceMetadata = {
    name: 'default',
    kind: dflt.kind,
    tables: tables(tablesJson ?? [], `${path}.tables`),
    configuration: dflt.configuration,
  };
  if (dflt.customization) converted.customization = dflt.customization;
  // Version 1 lists functions as bare names; version 2 as `{function, configuration}`.
  const fns = arrayOf(functionEntry)(functions ?? [], `${path}.functions`);
  if (fns.length > 0) converted.functions = fns;
  const out: Metadata = { ...(rest as JsonObject), version: 3, sources: [converted] };
  delete (out as JsonObject).query_templates;
  return withInheritedRoles(out, r);
}

/** `inherited_roles`, checked (duplicates, cycles) and sorted as exported; `query_collections`, `allowlist`, `rest_endpoints`, `network`, `metrics_config`, `api_limits` and `opentelemetry`, checked. */
function withInheritedRoles(m: Metadata, r: ObjectReader): Metadata {
  const roles = r.optional('inherited_roles', inheritedRoleList);
  if (roles) setInheritedRoles(m, roles);
  const { collections, allowlist } = collectionSections(r.value.query_collections, r.value.allowlist, r.path);
  setQueryCollections(m, collections);
  setAllowlist(m, allowlist);
  setRestEndpoints(m, restEndpointSection(r.value.rest_endpoints, collections, `${r.path}.rest_endpoints`));
  setTlsAllowlist(m, tlsAllowlistSection(r.value.network, `${r.path}.network`));
  setMetricsConfig(m, metricsConfigSection(r.value.metrics_config, `${r.path}.metrics_config`));
  setApiLimits(m, apiLimitsSection(r.value.api_limits, `${r.path}.api_limits`));
  setRemoteSchemas(m, remoteSchemasSection(r.value.remote_schemas, `${r.path}.remote_schemas`));
  setCustomTypes(m, customTypes(r.value.custom_types, `${r.path}.custom_types`));
  setActions(m, actionsSection(r.value.actions, `${r.path}.actions`));
  setOpenTelemetry(m, r.value.opentelemetry == null ? {} : openTelemetryConfig(r.value.opentelemetry, `${r.path}.opentelemetry`, process.env));
  return m;
}

const isEmpty = (v: unknown) => v === null || (Array.isArray(v) && v.length === 0) || (isObject(v) && Object.keys(v).length === 0);

/**
 * The stored (and exported) form leaves out empty lists, empty objects, nulls and
 * false `is_enum`, as the well-known engine's export does; every change passes
 * through here so that equal metadata is stored as equal text. Reads the frozen
 * document and copies only what loses a key.
 */
export function normalizeMetadata(m: Metadata): Metadata {
  const looked: number[][] = [];
  const out = produce(m, (d) => {
    for (const [k, v] of Object.entries(m)) if (k !== 'sources' && k !== 'version' && isEmpty(v)) delete d[k];
    m.sources.forEach((s, i) => {
      for (const k of ['functions', 'customization'] as const) if (isEmpty(s[k])) delete d.sources[i]![k];
      const places = unnormalizedPlaces(s.tables);
      for (const j of places) {
        const t = s.tables[j]!;
        if (normalizedEntries.has(t)) continue;
        for (const [k, v] of Object.entries(t)) if (isEmpty(v) || (k === 'is_enum' && v === false)) delete d.sources[i]!.tables[j]![k];
      }
      looked.push(places);
    });
  });
  out.sources.forEach((s, i) => {
    if (!Object.isFrozen(s.tables)) return;
    normalizedLists.add(s.tables);
    // The places looked at: the normal form changes an entry in place, and every other one was in it already.
    for (const j of looked[i]!) if (Object.isFrozen(s.tables[j])) normalizedEntries.add(s.tables[j]!);
  });
  return out;
}

/** Frozen table entries already in normal form: a change to one of 5,000 tables looks at that one. */
const normalizedEntries = new WeakSet<TableMetadata>();
/** Frozen table lists whose every entry is in normal form. */
const normalizedLists = new WeakSet<readonly TableMetadata[]>();

/**
 * The places of a table list that may hold an entry not in normal form: none for a list already
 * normalized, those a draft wrote when it made the list from one (a change of one table), else every place.
 */
function unnormalizedPlaces(tables: readonly TableMetadata[]): number[] {
  if (normalizedLists.has(tables)) return [];
  const since = changedKeysSince(tables, (l) => normalizedLists.has(l));
  return since ? indexes(since.keys).filter((j) => j < tables.length) : [...tables.keys()];
}
