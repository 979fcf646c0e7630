/**
 * A remote schema's form and the definition `add_remote_schema`/`update_remote_schema` take
 * (`url` or `url_from_env`, headers, `forward_client_headers`, `timeout_seconds`,
 * `customization`: root fields namespace, type names prefix/suffix, field names per parent type).
 */
import type { ConfiguredHeader } from '../../api/metadata';
import { configuredHeaders, headerRows, type HeaderRow } from '../../ui/HeaderListEditor';

export interface FieldNamesRow {
  parentType: string;
  prefix: string;
  suffix: string;
}

export interface RemoteSchemaForm {
  name: string;
  comment: string;
  urlFromEnv: boolean;
  url: string;
  headers: HeaderRow[];
  forwardClientHeaders: boolean;
  /** Seconds, as typed ('' for the engine's default). */
  timeout: string;
  namespace: string;
  typePrefix: string;
  typeSuffix: string;
  fieldNames: FieldNamesRow[];
}

interface Renaming {
  prefix?: string;
  suffix?: string;
  mapping?: Record<string, string>;
}

export interface RemoteSchemaDefinition {
  url?: string;
  url_from_env?: string;
  headers?: ConfiguredHeader[];
  forward_client_headers?: boolean;
  timeout_seconds?: number;
  customization?: {
    root_fields_namespace?: string;
    type_names?: Renaming;
    field_names?: ({ parent_type: string } & Renaming)[];
  };
}

export interface RemoteSchemaEntry {
  name: string;
  definition: RemoteSchemaDefinition;
  comment?: string;
  permissions?: { role: string; definition: { schema: string }; comment?: string }[];
}

export const EMPTY_FORM: RemoteSchemaForm = {
  name: '',
  comment: '',
  urlFromEnv: false,
  url: '',
  headers: [],
  forwardClientHeaders: false,
  timeout: '',
  namespace: '',
  typePrefix: '',
  typeSuffix: '',
  fieldNames: [],
};

export function formOf(entry: RemoteSchemaEntry): RemoteSchemaForm {
  const d = entry.definition;
  const c = d.customization ?? {};
  return {
    name: entry.name,
    comment: entry.comment ?? '',
    urlFromEnv: d.url_from_env !== undefined,
    url: d.url_from_env ?? d.url ?? '',
    headers: headerRows(d.headers),
    forwardClientHeaders: d.forward_client_headers ?? false,
    timeout: d.timeout_seconds !== undefined ? String(d.timeout_seconds) : '',
    namespace: c.root_fields_namespace ?? '',
    typePrefix: c.type_names?.prefix ?? '',
    typeSuffix: c.type_names?.suffix ?? '',
    fieldNames: (c.field_names ?? []).map((f) => ({ parentType: f.parent_type, prefix: f.prefix ?? '', suffix: f.suffix ?? '' })),
  };
}

const renaming = (prefix: string, suffix: string, kept?: Renaming): Renaming | undefined => {
  const r: Renaming = { ...(prefix.trim() ? { prefix: prefix.trim() } : {}), ...(suffix.trim() ? { suffix: suffix.trim() } : {}), ...(kept?.mapping ? { mapping: kept.mapping } : {}) };
  return Object.keys(r).length ? r : undefined;
};

/**
 * The definition the form describes. `previous` is the stored definition being modified: the
 * name mappings the form does not show are kept. An unparsable timeout is sent as typed for the
 * engine to refuse with its path.
 */
export function definitionOf(form: RemoteSchemaForm, previous?: RemoteSchemaDefinition): RemoteSchemaDefinition {
  const d: RemoteSchemaDefinition = form.urlFromEnv ? { url_from_env: form.url.trim() } : { url: form.url.trim() };
  const headers = configuredHeaders(form.headers);
  if (headers.length) d.headers = headers;
  if (form.forwardClientHeaders) d.forward_client_headers = true;
  if (form.timeout.trim()) d.timeout_seconds = /^\d+$/.test(form.timeout.trim()) ? Number(form.timeout.trim()) : (form.timeout.trim() as unknown as number);
  const before = previous?.customization;
  const types = renaming(form.typePrefix, form.typeSuffix, before?.type_names);
  const fields = form.fieldNames
    .filter((f) => f.parentType.trim())
    .map((f) => ({ parent_type: f.parentType.trim(), ...renaming(f.prefix, f.suffix, before?.field_names?.find((x) => x.parent_type === f.parentType.trim())) }));
  const customization = {
    ...(form.namespace.trim() ? { root_fields_namespace: form.namespace.trim() } : {}),
    ...(types ? { type_names: types } : {}),
    ...(fields.length ? { field_names: fields } : {}),
  };
  if (Object.keys(customization).length) d.customization = customization;
  return d;
}

/** `add_remote_schema`/`update_remote_schema`'s arguments. */
export const remoteSchemaArgs = (form: RemoteSchemaForm, previous?: RemoteSchemaDefinition) => ({
  name: form.name.trim(),
  definition: definitionOf(form, previous),
  ...(form.comment.trim() ? { comment: form.comment.trim() } : {}),
});
