/**
 * What a stored state says about the databases and remote servers behind it: per source, how
 * many changes re-read its catalog (after DDL through run_sql, a reload, a catalog found stale),
 * and per remote schema, how many re-read its introspection. Stored beside the document, so an
 * engine that adopts another engine's state re-reads exactly the catalogs whose count moved
 * before it serves that state: a table created and tracked through one engine is served by all,
 * and one reload_metadata reloads every engine (as the well-known engine's cache invalidations
 * do). Counts move only under the version row's lock.
 */
import type { Metadata } from '../metadata/types.js';
import { remoteSchemas } from '../metadata/remote-schemas.js';

export interface CatalogGenerations {
  readonly sources: Readonly<Record<string, number>>;
  readonly remoteSchemas: Readonly<Record<string, number>>;
}

/** What a change re-read, by name. */
export interface Rereads {
  readonly sources: ReadonlySet<string>;
  readonly remoteSchemas: ReadonlySet<string>;
}

export const NO_GENERATIONS: CatalogGenerations = Object.freeze({ sources: Object.freeze({}), remoteSchemas: Object.freeze({}) });

export const rereadNothing = (r: Rereads): boolean => r.sources.size === 0 && r.remoteSchemas.size === 0;

/** The counts after a change to `m` that re-read `reread`; names no longer in `m` are dropped. */
export function bumpGenerations(g: CatalogGenerations, reread: Rereads, m: Metadata): CatalogGenerations {
  const bump = (counts: Readonly<Record<string, number>>, names: readonly string[], moved: ReadonlySet<string>) =>
    Object.fromEntries(names.map((n) => [n, (counts[n] ?? 0) + (moved.has(n) ? 1 : 0)]).filter(([, c]) => c !== 0));
  return {
    sources: bump(g.sources, m.sources.map((s) => s.name), reread.sources),
    remoteSchemas: bump(g.remoteSchemas, remoteSchemas(m).map((r) => r.name), reread.remoteSchemas),
  };
}

/** What moved from `before` to `after`: the catalogs an engine that served `before` reads again. */
export function movedGenerations(before: CatalogGenerations, after: CatalogGenerations): Rereads {
  const moved = (a: Readonly<Record<string, number>>, b: Readonly<Record<string, number>>) => new Set(Object.keys(b).filter((n) => a[n] !== b[n]));
  return { sources: moved(before.sources, after.sources), remoteSchemas: moved(before.remoteSchemas, after.remoteSchemas) };
}

export const sameGenerations = (a: CatalogGenerations, b: CatalogGenerations): boolean => rereadNothing(movedGenerations(a, b)) && rereadNothing(movedGenerations(b, a));

/** The stored JSON (`{"sources": {...}, "remote_schemas": {...}}`); anything else there counts as nothing re-read. */
export function decodeGenerations(json: unknown): CatalogGenerations {
  const counts = (v: unknown): Record<string, number> =>
    v !== null && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).filter((e): e is [string, number] => Number.isSafeInteger(e[1]))) : {};
  const o = json !== null && typeof json === 'object' ? (json as Record<string, unknown>) : {};
  return { sources: counts(o.sources), remoteSchemas: counts(o.remote_schemas) };
}

export const encodeGenerations = (g: CatalogGenerations): string => JSON.stringify({ sources: g.sources, remote_schemas: g.remoteSchemas });
