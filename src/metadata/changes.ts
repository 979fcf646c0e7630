/**
 * What a new metadata version changed, as far as compiled plans care: the tracked tables
 * whose entries are not the same objects as before (committed metadata is frozen and a
 * change shares everything it did not touch, so identity is the test), the sources whose
 * own settings or catalog changed, or everything. Plans that read none of it stay cached
 *. Over-reporting only costs a recompile; under-reporting would serve a
 * stale plan, so anything not understood counts as everything.
 */
import { qualifiedKey } from '../catalog/types.js';
import { changedTablePlaces, sameTablePlaces } from './document-parts.js';
import type { Metadata, SourceMetadata, TableMetadata } from './types.js';

export interface MetadataChanges {
  everything: boolean;
  /** Sources whose configuration, customization, functions or catalog changed. */
  sources: string[];
  /** Tables added, removed or changed. */
  tables: TableChange[];
}

export interface TableChange {
  /** `source \0 schema.name` */
  key: string;
  /**
   * The roles whose permissions on the table changed, with the inherited roles built on them
   * (a plan of another role, or admin's, is still valid); null when more than permissions
   * changed: every role.
   */
  roles: string[] | null;
}

export const EVERYTHING: MetadataChanges = Object.freeze({ everything: true, sources: [], tables: [] }) as MetadataChanges;

/**
 * Top-level sections no schema or plan reads: a change to them alone keeps every plan (`network`: the TLS allow-list of outgoing calls; `opentelemetry`: where spans go;
 * `api_limits`: a plan carries its depth and node count, compared with the limits per request).
 */
const PLAN_NEUTRAL = new Set(['network', 'opentelemetry', 'api_limits']);

/** `catalogChanged`: sources whose catalog (or enum values) is not the one of `before`'s snapshot. */
export function metadataChanges(before: Metadata | null, after: Metadata, catalogChanged: (source: string) => boolean): MetadataChanges {
  if (!before) return EVERYTHING;
  if (before === after) return { everything: false, sources: after.sources.map((s) => s.name).filter(catalogChanged), tables: [] };
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  for (const k of keys) if (k !== 'sources' && !PLAN_NEUTRAL.has(k) && before[k] !== after[k]) return EVERYTHING;
  const sources = new Set<string>();
  const tables: TableChange[] = [];
  const withInheritors = inheritors(after);
  const changed = (source: string, key: string, prev: TableMetadata | undefined, next: TableMetadata | undefined) => {
    const roles = prev && next ? permissionRoles(prev, next) : null;
    tables.push({ key: `${source}\u0000${key}`, roles: roles && withInheritors(roles) });
  };
  const old = new Map(before.sources.map((s) => [s.name, s]));
  for (const s of after.sources) {
    const prev = old.get(s.name);
    old.delete(s.name);
    if (!prev || !sameSettings(prev, s) || catalogChanged(s.name)) {
      sources.add(s.name);
      continue;
    }
    if (prev.tables === s.tables) continue;
    if (sameTablePlaces(prev.tables, s.tables)) {
      for (const i of changedTablePlaces(prev.tables, s.tables)) changed(s.name, qualifiedKey(s.tables[i]!.table), prev.tables[i], s.tables[i]);
      continue;
    }
    const prevTables = new Map(prev.tables.map((t) => [qualifiedKey(t.table), t]));
    for (const t of s.tables) {
      const key = qualifiedKey(t.table);
      const p = prevTables.get(key);
      if (p !== t) changed(s.name, key, p, t);
      prevTables.delete(key);
    }
    for (const key of prevTables.keys()) changed(s.name, key, undefined, undefined);
  }
  for (const name of old.keys()) sources.add(name);
  return { everything: false, sources: [...sources], tables };
}

/** Everything of a source but its tables is the same object as before. */
export function sameSettings(a: SourceMetadata, b: SourceMetadata): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const k of keys) if (k !== 'tables' && a[k] !== b[k]) return false;
  return true;
}

const PERMISSION_LISTS = new Set(['insert_permissions', 'select_permissions', 'update_permissions', 'delete_permissions']);

/**
 * The roles whose permission entries differ between two versions of a table entry (entries are
 * frozen and shared, so identity is the test), or null when anything but permissions differs.
 */
function permissionRoles(prev: TableMetadata, next: TableMetadata): string[] | null {
  const roles = new Set<string>();
  for (const f of new Set([...Object.keys(prev), ...Object.keys(next)])) {
    if (prev[f] === next[f]) continue;
    if (!PERMISSION_LISTS.has(f)) return null;
    const items = (t: TableMetadata) => new Map(((t[f] ?? []) as { role: string }[]).map((p) => [p.role, p]));
    const [a, b] = [items(prev), items(next)];
    for (const role of new Set([...a.keys(), ...b.keys()])) if (a.get(role) !== b.get(role)) roles.add(role);
  }
  return [...roles];
}

/** Roles with every inherited role built on any of them, however deep (a role's plans read its parents' permissions). */
function inheritors(m: Metadata): (roles: string[]) => string[] {
  const list = (m.inherited_roles ?? []) as { role_name: string; role_set: string[] }[];
  return (roles) => {
    const out = new Set(roles);
    for (let grew = true; grew; ) {
      grew = false;
      for (const r of list) {
        if (out.has(r.role_name) || !r.role_set.some((x) => out.has(x))) continue;
        out.add(r.role_name);
        grew = true;
      }
    }
    return [...out];
  };
}

/**
 * Whether `after` differs from `before` in the tables' permission lists only: every other part
 * is the same object (the same tables in the same places, settings, catalogs aside). Then what
 * does not depend on permissions (a role's schema of an unchanged shape, say) still holds.
 */
export function onlyPermissionsChanged(before: Metadata, after: Metadata): boolean {
  if (before === after) return true;
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  for (const k of keys) if (k !== 'sources' && before[k] !== after[k]) return false;
  if (before.sources.length !== after.sources.length) return false;
  return after.sources.every((s, i) => {
    const prev = before.sources[i]!;
    if (prev.name !== s.name || !sameSettings(prev, s) || !sameTablePlaces(prev.tables, s.tables)) return false;
    return changedTablePlaces(prev.tables, s.tables).every((j) => {
      const [p, t] = [prev.tables[j]!, s.tables[j]!];
      const fields = new Set([...Object.keys(p), ...Object.keys(t)]);
      return [...fields].every((f) => PERMISSION_LISTS.has(f) || p[f] === t[f]);
    });
  });
}
