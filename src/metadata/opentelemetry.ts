/**
 * The OpenTelemetry export settings: metadata key `opentelemetry`, as the well-known engine
 * stores and exports it (`status`, `data_types`, `exporter_otlp`, `batch_span_processor`),
 * kept as given. Its defaults: status `disabled`, no data types, protocol `http/protobuf` (the
 * only one), no headers or resource attributes, propagators `[b3]`, batches of 512 spans.
 * While enabled, each listed data type needs its endpoint, and the endpoints' `{{ENV}}`
 * templates and the headers' `value_from_env` must resolve: otherwise the setting is refused
 * (the well-known engine reports it as an inconsistency of the change, which refuses it too).
 */
import { ApiError, parseFailed } from '../errors/admin.js';
import { arrayOf, int, isObject, ObjectReader, oneOf, str, type Json, type JsonObject } from '../util/decode.js';
import { readHeaders } from './event-triggers.js';
import type { Metadata } from './types.js';
import { checkUrlOrTemplate, fillUrlTemplate } from './url-template.js';

export const OTEL_STATUSES = ['enabled', 'disabled'] as const;
export const OTEL_DATA_TYPES = ['traces', 'metrics', 'logs'] as const;
export const TRACE_PROPAGATORS = ['b3', 'tracecontext'] as const;
/** The well-known engine's default batch (the OpenTelemetry SDK's); its queue holds four batches. */
export const DEFAULT_MAX_EXPORT_BATCH_SIZE = 512;

type DataType = (typeof OTEL_DATA_TYPES)[number];

const ENDPOINT_KEYS: Record<DataType, string> = { traces: 'otlp_traces_endpoint', metrics: 'otlp_metrics_endpoint', logs: 'otlp_logs_endpoint' };

/** What the threads that emit spans export to, everything resolved from the environment. */
export interface TracesExport {
  endpoint: string;
  headers: Record<string, string>;
  resourceAttributes: Record<string, string>;
  maxExportBatchSize: number;
}

const endpoint = (v: unknown, path: string): string => {
  try {
    return checkUrlOrTemplate(str(v, path));
  } catch (e) {
    if (e instanceof ApiError) throw e;
    throw parseFailed((e as Error).message, path);
  }
};

const nameValue = (v: unknown, path: string): JsonObject => {
  const r = ObjectReader.of(v, path);
  const out = { name: r.required('name', str), value: r.required('value', str) };
  r.done();
  return out;
};

function exporterOtlp(v: unknown, path: string, env: NodeJS.ProcessEnv): JsonObject {
  const r = ObjectReader.of(v, path);
  const out: JsonObject = {};
  for (const key of Object.values(ENDPOINT_KEYS)) {
    const url = r.optional(key, endpoint);
    if (url !== undefined) out[key] = url;
  }
  const protocol = r.optional('protocol', oneOf(['http/protobuf'], 'protocol (only http/protobuf is supported)'));
  if (protocol !== undefined) out.protocol = protocol;
  const headers = r.optional('headers', (x, p) => readHeaders(x, p, env));
  if (headers !== undefined) out.headers = headers;
  const attributes = r.optional('resource_attributes', arrayOf(nameValue));
  if (attributes !== undefined) out.resource_attributes = attributes;
  const propagators = r.optional('traces_propagators', arrayOf(oneOf(TRACE_PROPAGATORS, 'trace propagator')));
  if (propagators !== undefined) out.traces_propagators = [...new Set(propagators)];
  r.done();
  return out;
}

function batchSpanProcessor(v: unknown, path: string): JsonObject {
  const r = ObjectReader.of(v, path);
  const size = r.optional('max_export_batch_size', (x, p) => {
    const n = int(x, p);
    if (n <= 0) throw parseFailed('max_export_batch_size must be a positive integer', p);
    return n;
  });
  r.done();
  return size === undefined ? {} : { max_export_batch_size: size };
}

/** `set_opentelemetry_config`'s arguments, or the document's `opentelemetry`: checked, and resolvable while enabled. */
export function openTelemetryConfig(v: unknown, path: string, env: NodeJS.ProcessEnv): JsonObject {
  const r = ObjectReader.of(v, path);
  const out: JsonObject = {};
  const status = r.optional('status', oneOf(OTEL_STATUSES, 'OpenTelemetry status'));
  if (status !== undefined) out.status = status;
  const types = r.optional('data_types', arrayOf(oneOf(OTEL_DATA_TYPES, 'data type')));
  if (types !== undefined) out.data_types = [...new Set(types)];
  const exporter = r.optional('exporter_otlp', (x, p) => exporterOtlp(x, p, env));
  if (exporter !== undefined) out.exporter_otlp = exporter;
  const batch = r.optional('batch_span_processor', batchSpanProcessor);
  if (batch !== undefined) out.batch_span_processor = batch;
  r.done();
  if (status === 'enabled') resolveEndpoints(out, path, env);
  return out;
}

/** The stored settings (absent: the defaults). */
export const openTelemetryOf = (m: Metadata): JsonObject => (isObject(m.opentelemetry) ? m.opentelemetry : {});

/** Stores the settings; the defaults leave no key behind (as an unset one exports). */
export function setOpenTelemetry(m: Metadata, config: JsonObject): void {
  if (Object.keys(config).length > 0) m.opentelemetry = config as Json;
  else delete m.opentelemetry;
}

/** Each enabled data type's endpoint, its template filled in; an error at the path of what is missing or wrong. */
function resolveEndpoints(c: JsonObject, path: string, env: NodeJS.ProcessEnv): Partial<Record<DataType, string>> {
  const exporter = isObject(c.exporter_otlp) ? c.exporter_otlp : {};
  const out: Partial<Record<DataType, string>> = {};
  for (const type of (c.data_types as DataType[] | undefined) ?? []) {
    const key = ENDPOINT_KEYS[type];
    const at = `${path}.exporter_otlp.${key}`;
    const template = exporter[key];
    const name = type.charAt(0).toUpperCase() + type.slice(1);
    // The well-known engine's words ("Traces export is enabled but tracing endpoint missing").
    if (typeof template !== 'string') throw new ApiError(400, 'invalid-params', `${name} export is enabled but ${type} endpoint missing`, at);
    try {
      out[type] = fillUrlTemplate(template, env);
    } catch (e) {
      throw new ApiError(400, 'invalid-params', (e as Error).message, at);
    }
  }
  return out;
}

/**
 * Where and how spans go, or null when they do not (disabled, traces not listed). Throws an
 * `ApiError` when the environment no longer resolves the settings (the caller decides).
 */
export function tracesExport(m: Metadata, env: NodeJS.ProcessEnv): TracesExport | null {
  const c = openTelemetryOf(m);
  if (c.status !== 'enabled') return null;
  const url = resolveEndpoints(c, '$.opentelemetry', env).traces;
  if (url === undefined) return null;
  const exporter = isObject(c.exporter_otlp) ? c.exporter_otlp : {};
  const headers: Record<string, string> = {};
  for (const h of (exporter.headers as JsonObject[] | undefined) ?? []) {
    const value = typeof h.value === 'string' ? h.value : env[String(h.value_from_env)];
    if (value === undefined) throw new ApiError(400, 'not-found', `environment variable ${JSON.stringify(h.value_from_env)} not set`, '$.opentelemetry.exporter_otlp.headers');
    headers[String(h.name)] = value;
  }
  const resourceAttributes = Object.fromEntries(((exporter.resource_attributes as JsonObject[] | undefined) ?? []).map((a) => [String(a.name), String(a.value)]));
  const batch = isObject(c.batch_span_processor) ? c.batch_span_processor : {};
  return { endpoint: url, headers, resourceAttributes, maxExportBatchSize: typeof batch.max_export_batch_size === 'number' ? batch.max_export_batch_size : DEFAULT_MAX_EXPORT_BATCH_SIZE };
}
