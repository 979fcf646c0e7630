/**
 * Remote schemas as stored (spec "Remote schema"): the top-level `remote_schemas` list of
 * `{name, definition, comment?, permissions?}`, in the well-known engine's export form. The
 * definition is checked here (URL, `{{ENV}}` template or `url_from_env`, headers with `value` or `value_from_env`,
 * `timeout_seconds`, `customization`); whether the server answers is the metadata actor's
 * business (actors/metadata/remotes.ts).
 */
import { alreadyExists, badRequest, notExists } from '../errors/admin.js';
import { arrayOf, bool, int, isObject, nonEmptyStr, ObjectReader, str, stringMap, type Json, type JsonObject, strOrNull } from '../util/decode.js';
import { firstRepeat } from '../util/first-repeat.js';
import type { Metadata } from './types.js';
import { graphqlName, graphqlNamePart } from './names.js';
import { checkUrlOrTemplate } from './url-template.js';

export interface RemoteHeader {
  name: string;
  value?: string;
  value_from_env?: string;
}

export interface FieldNamesCustomization {
  parent_type: string;
  prefix?: string;
  suffix?: string;
  mapping?: Record<string, string>;
}

export interface RemoteCustomization {
  root_fields_namespace?: string;
  type_names?: { prefix?: string; suffix?: string; mapping?: Record<string, string> };
  field_names?: FieldNamesCustomization[];
}

export interface RemoteDefinition {
  url?: string;
  url_from_env?: string;
  headers?: RemoteHeader[];
  forward_client_headers?: boolean;
  timeout_seconds?: number;
  customization?: RemoteCustomization;
}

export interface RemoteSchemaPermission {
  role: string;
  definition: { schema: string };
  comment?: string;
}

export interface RemoteSchemaMetadata {
  name: string;
  definition: RemoteDefinition;
  comment?: string;
  permissions?: RemoteSchemaPermission[];
}

/** The well-known engine's default `timeout_seconds`. */
export const DEFAULT_REMOTE_TIMEOUT_SECONDS = 60;


function nameMapping(v: unknown, path: string): Record<string, string> {
  const m = stringMap(v, path);
  for (const [k, to] of Object.entries(m)) {
    graphqlName(k, `${path}.${k}`);
    graphqlName(to, `${path}.${k}`);
  }
  return m;
}

/** A configured header: a `value` or a `value_from_env` (remote schemas, actions). */
export function header(v: unknown, path: string): RemoteHeader {
  const r = ObjectReader.of(v, path);
  const h: RemoteHeader = { name: r.required('name', nonEmptyStr) };
  const value = r.optional('value', str);
  const fromEnv = r.optional('value_from_env', nonEmptyStr);
  r.done();
  if ((value === undefined) === (fromEnv === undefined)) throw badRequest('parse-failed', 'a header needs exactly one of "value" and "value_from_env"', path);
  if (value !== undefined) h.value = value;
  if (fromEnv !== undefined) h.value_from_env = fromEnv;
  return h;
}

/** `prefix`, `suffix` and `mapping` read into `out` (empty ones left out). */
function renaming<T extends { prefix?: string; suffix?: string; mapping?: Record<string, string> }>(r: ObjectReader, out: T): T {
  const prefix = r.optional('prefix', graphqlNamePart(true));
  const suffix = r.optional('suffix', graphqlNamePart(false));
  const mapping = r.optional('mapping', nameMapping);
  r.done();
  if (prefix) out.prefix = prefix;
  if (suffix) out.suffix = suffix;
  if (mapping && Object.keys(mapping).length) out.mapping = mapping;
  return out;
}

function customization(v: unknown, path: string): RemoteCustomization {
  const r = ObjectReader.of(v, path);
  const c: RemoteCustomization = {};
  const ns = r.optional('root_fields_namespace', graphqlName);
  if (ns !== undefined) c.root_fields_namespace = ns;
  const types = r.optional('type_names', (x, p) => renaming(ObjectReader.of(x, p), {}));
  if (types && Object.keys(types).length) c.type_names = types;
  const fields = r.optional(
    'field_names',
    arrayOf((x, p) => {
      const f = ObjectReader.of(x, p);
      return renaming(f, { parent_type: f.required('parent_type', graphqlName) } as FieldNamesCustomization);
    }),
  );
  if (fields) {
    const i = firstRepeat(fields, (f) => f.parent_type);
    if (i >= 0) throw badRequest('parse-failed', `parent_type ${JSON.stringify(fields[i]!.parent_type)} is customized more than once`, `${path}.field_names[${i}]`);
    if (fields.length) c.field_names = fields;
  }
  r.done();
  return c;
}

/** An http(s) URL, or a `{{ENV}}` template filled in when the server is called (its introspection reports what is missing). */
function url(v: unknown, path: string): string {
  const s = nonEmptyStr(v, path);
  try {
    return checkUrlOrTemplate(s);
  } catch (e) {
    throw badRequest('invalid-url', (e as Error).message, path);
  }
}

export function remoteDefinition(v: unknown, path: string): RemoteDefinition {
  const r = ObjectReader.of(v, path);
  const d: RemoteDefinition = {};
  const u = r.optional('url', url);
  const fromEnv = r.optional('url_from_env', nonEmptyStr);
  if ((u === undefined) === (fromEnv === undefined)) throw badRequest('parse-failed', 'a remote schema needs exactly one of "url" and "url_from_env"', path);
  if (u !== undefined) d.url = u;
  if (fromEnv !== undefined) d.url_from_env = fromEnv;
  const headers = r.optional('headers', arrayOf(header));
  if (headers?.length) d.headers = headers;
  const forward = r.optional('forward_client_headers', bool);
  if (forward) d.forward_client_headers = true;
  const timeout = r.optional('timeout_seconds', int);
  if (timeout !== undefined) {
    if (timeout <= 0) throw badRequest('parse-failed', 'timeout_seconds must be a positive integer', `${path}.timeout_seconds`);
    d.timeout_seconds = timeout;
  }
  const c = r.optional('customization', customization);
  if (c && Object.keys(c).length) d.customization = c;
  r.done();
  return d;
}

/** `{name, definition, comment?}`: the arguments of add_remote_schema and update_remote_schema; a stored entry also has its `permissions`. */
export function remoteSchemaArgs(v: unknown, path: string, stored = false): RemoteSchemaMetadata {
  const r = ObjectReader.of(v, path);
  const rs: RemoteSchemaMetadata = { name: r.required('name', nonEmptyStr), definition: r.required('definition', remoteDefinition) };
  const comment = r.optional('comment', strOrNull);
  if (comment !== undefined) rs.comment = comment;
  if (stored) {
    const permissions = r.optional('permissions', arrayOf(remotePermissionEntry));
    if (permissions?.length) rs.permissions = permissions;
  }
  r.done();
  return rs;
}

export function remoteSchemas(m: Metadata): RemoteSchemaMetadata[] {
  const list = m.remote_schemas;
  return Array.isArray(list) ? (list.filter(isObject) as unknown as RemoteSchemaMetadata[]) : [];
}

export function setRemoteSchemas(m: Metadata, list: RemoteSchemaMetadata[]): void {
  if (list.length > 0) m.remote_schemas = list as unknown as Json;
  else delete m.remote_schemas;
}

export function findRemoteSchema(m: Metadata, name: string, path: string): RemoteSchemaMetadata {
  const rs = remoteSchemas(m).find((x) => x.name === name);
  if (!rs) throw notExists(`remote schema with name ${JSON.stringify(name)} does not exist`, path);
  return rs;
}

export function assertNewRemoteSchema(m: Metadata, name: string, path: string): void {
  if (remoteSchemas(m).some((x) => x.name === name)) throw alreadyExists(`remote schema with name ${JSON.stringify(name)} already exists`, path);
}

/** The `remote_schemas` section of a replaced document: each entry checked, names unique. */
export function remoteSchemasSection(v: unknown, path: string): RemoteSchemaMetadata[] {
  if (v === undefined || v === null) return [];
  const list = arrayOf((x, p) => remoteSchemaArgs(x, p, true))(v, path);
  const i = firstRepeat(list, (x) => x.name);
  if (i >= 0) throw alreadyExists(`remote schema with name ${JSON.stringify(list[i]!.name)} is listed more than once`, `${path}[${i}]`);
  return list;
}

export function remotePermissionEntry(v: unknown, path: string): RemoteSchemaPermission {
  const r = ObjectReader.of(v, path);
  const p: RemoteSchemaPermission = {
    role: r.required('role', nonEmptyStr),
    definition: r.required('definition', (x, dp) => {
      const d = ObjectReader.of(x, dp);
      const schema = d.required('schema', nonEmptyStr);
      d.done();
      return { schema };
    }),
  };
  const comment = r.optional('comment', strOrNull);
  if (comment !== undefined) p.comment = comment;
  r.done();
  return p;
}

/** The remote schema without `role`'s permission (no `permissions` key left when none is). */
export function withoutPermission(rs: RemoteSchemaMetadata, role: string): RemoteSchemaMetadata {
  const { permissions, ...rest } = rs;
  const left = (permissions ?? []).filter((p) => p.role !== role);
  return left.length ? { ...rest, permissions: left } : rest;
}

/** The parts of a definition that decide what introspection gives: a change to them refetches. */
export const introspectionKey = (d: RemoteDefinition): JsonObject => ({
  url: d.url ?? null,
  url_from_env: d.url_from_env ?? null,
  headers: (d.headers ?? []) as unknown as Json,
  timeout_seconds: d.timeout_seconds ?? null,
});
