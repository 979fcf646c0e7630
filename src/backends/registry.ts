/**
 * Each metadata source kind's backend, by face (`faces/`), loaded when a thread first needs it:
 * a thread imports only the faces it uses of the backends of the sources it serves (a compiler
 * pool for PostgreSQL loads PostgreSQL's translator alone, never its connections or SQL
 * Server's modules). `citus` is the `postgres` backend with Citus' catalog read (its admin face,
 * composed here: backends never import each other); `mssql` is SQL Server; `bigquery` is
 * BigQuery (read-only).
 */
import type { ApiError } from '../errors/admin.js';
import type { BackendKind } from '../metadata/types.js';
import type { Backend } from './backend.js';
import type { AdminFace } from './faces/admin.js';
import type { EventsFace } from './faces/events.js';
import type { Runtime } from './faces/runtime.js';
import type { Translator } from './faces/translator.js';

interface Faces {
  translator: Translator;
  runtime: Runtime;
  admin: AdminFace;
  events: EventsFace;
}
export type Face = keyof Faces;
const FACES: readonly Face[] = ['translator', 'runtime', 'admin', 'events'];

const LOADERS: { [K in BackendKind]: { [F in Face]: () => Promise<Faces[F]> } } = {
  postgres: {
    translator: async () => (await import('./pg/faces/translator.js')).translator,
    runtime: async () => (await import('./pg/faces/runtime.js')).runtime,
    admin: async () => (await import('./pg/faces/admin.js')).admin,
    events: async () => (await import('./pg/faces/events.js')).events,
  },
  citus: {
    translator: () => load('translator', 'postgres'),
    runtime: () => load('runtime', 'postgres'),
    admin: async () => (await import('./citus/admin.js')).citusAdmin(await load('admin', 'postgres')),
    events: () => load('events', 'postgres'),
  },
  mssql: {
    translator: async () => (await import('./mssql/faces/translator.js')).translator,
    runtime: async () => (await import('./mssql/faces/runtime.js')).runtime,
    admin: async () => (await import('./mssql/faces/admin.js')).admin,
    events: async () => (await import('./mssql/faces/events.js')).events,
  },
  bigquery: {
    translator: async () => (await import('./bigquery/faces/translator.js')).translator,
    runtime: async () => (await import('./bigquery/faces/runtime.js')).runtime,
    admin: async () => (await import('./bigquery/faces/admin.js')).admin,
    events: async () => (await import('./bigquery/faces/events.js')).events,
  },
};

const loading = new Map<string, Promise<unknown>>();
const loaded = new Map<string, unknown>();
const key = (face: Face, kind: BackendKind) => `${face}\u0000${kind}`;

const isBackendKind = (kind: string): kind is BackendKind => Object.hasOwn(LOADERS, kind);

function load<F extends Face>(face: F, kind: BackendKind): Promise<Faces[F]> {
  let p = loading.get(key(face, kind)) as Promise<Faces[F]> | undefined;
  if (!p) {
    p = LOADERS[kind][face]().then((f) => (loaded.set(key(face, kind), f), f)) as Promise<Faces[F]>;
    loading.set(key(face, kind), p);
  }
  return p;
}

/**
 * Loads one face of the backends of these source kinds; null when they are loaded already (the
 * caller goes on at once). Kinds no backend serves are left out.
 */
export function loadFaces(face: Face, kinds: Iterable<string>): Promise<void> | null {
  const missing = [...new Set(kinds)].filter((k): k is BackendKind => isBackendKind(k) && !loaded.has(key(face, k)));
  return missing.length === 0 ? null : Promise.all(missing.map((k) => load(face, k))).then(() => undefined);
}

/** Every face of every backend: the metadata actor's, whose commands may name any kind (`mssql_add_source`). */
export const loadEveryBackend = (): Promise<void> => Promise.all(FACES.map((f) => loadFaces(f, Object.keys(LOADERS)))).then(() => undefined);

/** A face of a source kind's backend, or undefined when this engine has none for the kind. A thread loads it first (`loadFaces`). */
function faceFor<F extends Face>(face: F, kind: string): Faces[F] | undefined {
  if (!isBackendKind(kind)) return undefined;
  const found = loaded.get(key(face, kind));
  if (!found) throw new Error(`the ${face} of the ${kind} backend is used before this thread loaded it`);
  return found as Faces[F];
}

export const translatorFor = (kind: string) => faceFor('translator', kind);
export const runtimeFor = (kind: string) => faceFor('runtime', kind);
export const eventsFor = (kind: string) => faceFor('events', kind);

const whole = new Map<BackendKind, Backend>();

/** Every face of a source kind's backend, put together once (the metadata actor's, which loads them all). */
export function backendFor(kind: string): Backend | undefined {
  if (!isBackendKind(kind)) return undefined;
  let backend = whole.get(kind);
  if (!backend) {
    backend = { ...faceFor('translator', kind)!, ...faceFor('runtime', kind)!, ...faceFor('admin', kind)!, ...faceFor('events', kind)! };
    whole.set(kind, backend);
  }
  return backend;
}

/**
 * The kind whose compiler pool translates a source kind's fields: Citus' statements are
 * PostgreSQL's (its backend keeps `kind` `postgres`), so Citus sources share that pool.
 */
export const translatingKind = (kind: string): string => (kind === 'citus' ? 'postgres' : kind);

/** A database error of any loaded backend met by an administration request, or null when `e` is none. */
export function adminError(e: unknown): ApiError | null {
  for (const [k, face] of loaded) {
    if (!k.startsWith('admin\u0000')) continue;
    const error = (face as AdminFace).adminError(e);
    if (error) return error;
  }
  return null;
}
