/**
 * A bigquery source's `configuration` (spec "Source": `service_account`, `project_id`,
 * `datasets`): the service account as an object, a JSON string or `{from_env}` (its JSON),
 * the project as a string or `{from_env}`, the datasets as a comma-separated string (a list
 * is accepted too, as upstream) or `{from_env}`. Literal values are checked when they enter
 * the metadata (a service account needs `client_email` and `private_key`); stored as given.
 */
import { badRequest } from '../../errors/admin.js';
import { int, isObject, ObjectReader, str, type Json, type JsonObject } from '../../util/decode.js';

export interface BigQueryTarget {
  credentials: { client_email: string; private_key: string };
  projectId: string;
  datasets: string[];
}

function fromEnv(v: unknown, path: string): { from_env: string } {
  const r = ObjectReader.of(v, path);
  const name = r.required('from_env', str);
  r.done();
  return { from_env: name };
}

/** The service account's credentials from its JSON object; throws a message naming what is missing. */
export function credentialsOf(v: unknown): BigQueryTarget['credentials'] {
  const o = typeof v === 'string' ? (JSON.parse(v) as unknown) : v;
  if (!isObject(o)) throw new Error('the service account is not a JSON object');
  for (const key of ['client_email', 'private_key'] as const) if (typeof o[key] !== 'string' || o[key] === '') throw new Error(`the service account has no ${key}`);
  return { client_email: o.client_email as string, private_key: o.private_key as string };
}

function serviceAccount(v: unknown, path: string): Json {
  if (isObject(v) && 'from_env' in v) return fromEnv(v, path);
  try {
    credentialsOf(v);
  } catch (e) {
    throw badRequest('parse-failed', `invalid service_account: ${(e as Error).message}`, path);
  }
  return v as Json;
}

const stringOrEnv = (v: unknown, path: string): Json => (isObject(v) ? fromEnv(v, path) : str(v, path));

function datasets(v: unknown, path: string): Json {
  if (isObject(v)) return fromEnv(v, path);
  const list = Array.isArray(v) ? v.map((d, i) => str(d, `${path}[${i}]`)) : splitDatasets(str(v, path));
  if (list.length === 0 || list.some((d) => d === '')) throw badRequest('parse-failed', 'datasets must name at least one dataset, none empty', path);
  return v as Json;
}

export const splitDatasets = (text: string) => text.split(',').map((d) => d.trim());

export function bigquerySourceConfiguration(v: unknown, path: string): JsonObject {
  const r = ObjectReader.of(v, path);
  const out: JsonObject = {
    service_account: r.required('service_account', serviceAccount),
    project_id: r.required('project_id', stringOrEnv),
    datasets: r.required('datasets', datasets),
  };
  for (const key of ['global_select_limit', 'retry_base_delay', 'retry_limit'] as const) {
    const n = r.optional(key, int);
    if (n === undefined) continue;
    if (n < 0) throw badRequest('parse-failed', `${key} must be a non-negative integer`, r.at(key));
    out[key] = n;
  }
  r.done();
  return out;
}

function resolve(v: Json | undefined, env: NodeJS.ProcessEnv): unknown {
  if (!isObject(v) || typeof v.from_env !== 'string') return v;
  const value = env[v.from_env];
  if (value === undefined || value === '') throw new Error(`environment variable "${v.from_env}" not set`);
  return value;
}

/** The driver's settings, `{from_env}` resolved now (the variable must exist: its name is in the error). */
export function bigqueryTarget(configuration: JsonObject, env: NodeJS.ProcessEnv = process.env): BigQueryTarget {
  const list = resolve(configuration.datasets, env);
  return {
    credentials: credentialsOf(resolve(configuration.service_account, env)),
    projectId: String(resolve(configuration.project_id, env)),
    datasets: Array.isArray(list) ? list.map(String) : splitDatasets(String(list)),
  };
}
