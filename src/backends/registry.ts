/**
 * The backend of each metadata source kind, loaded when a thread first needs it: a thread
 * imports only the backends of the sources it serves (a compiler pool for PostgreSQL never
 * loads SQL Server's or BigQuery's modules). `citus` is the `postgres` backend with Citus'
 * catalog read (composed here: backends never import each other); `mssql` is SQL Server;
 * `bigquery` is BigQuery (read-only).
 */
import type { ApiError } from '../errors/admin.js';
import type { BackendKind } from '../metadata/types.js';
import type { Backend } from './backend.js';

const LOADERS: Record<BackendKind, () => Promise<Backend>> = {
  postgres: async () => (await import('./pg/backend.js')).postgres,
  citus: async () => (await import('./citus/backend.js')).citusOn(await loadBackend('postgres')),
  mssql: async () => (await import('./mssql/backend.js')).mssql,
  bigquery: async () => (await import('./bigquery/backend.js')).bigquery,
};

const loading = new Map<BackendKind, Promise<Backend>>();
const loaded = new Map<BackendKind, Backend>();

const isBackendKind = (kind: string): kind is BackendKind => Object.hasOwn(LOADERS, kind);

function loadBackend(kind: BackendKind): Promise<Backend> {
  let p = loading.get(kind);
  if (!p) {
    p = LOADERS[kind]().then((b) => (loaded.set(kind, b), b));
    loading.set(kind, p);
  }
  return p;
}

/**
 * Loads the backends of these source kinds; null when they are loaded already (the caller goes
 * on at once). Kinds no backend serves are left out.
 */
export function loadBackends(kinds: Iterable<string>): Promise<void> | null {
  const missing = [...new Set(kinds)].filter((k): k is BackendKind => isBackendKind(k) && !loaded.has(k));
  return missing.length === 0 ? null : Promise.all(missing.map(loadBackend)).then(() => undefined);
}

/** Every backend: the metadata actor's, whose commands may name any kind (`mssql_add_source`). */
export const loadEveryBackend = (): Promise<void> => loadBackends(Object.keys(LOADERS)) ?? Promise.resolve();

/** The backend of a source kind, or undefined when this engine has none for it. A thread loads it first (`loadBackends`). */
export function backendFor(kind: string): Backend | undefined {
  if (!isBackendKind(kind)) return undefined;
  const backend = loaded.get(kind);
  if (!backend) throw new Error(`the ${kind} backend is used before this thread loaded it`);
  return backend;
}

/**
 * The kind whose compiler pool translates a source kind's fields: Citus' statements are
 * PostgreSQL's (its backend keeps `kind` `postgres`), so Citus sources share that pool.
 */
export const translatingKind = (kind: string): string => (kind === 'citus' ? 'postgres' : kind);

/** A database error of any loaded backend met by an administration request, or null when `e` is none. */
export function adminError(e: unknown): ApiError | null {
  for (const backend of new Set(loaded.values())) {
    const error = backend.adminError(e);
    if (error) return error;
  }
  return null;
}
