/**
 * The engine's metadata as the console last read it (`export_metadata`, version 2: with its
 * `resource_version`), shared by every page through `MetadataProvider`; a page that changes
 * something calls `refresh()` after. Types name only what the console reads.
 */
import { createContext, createElement, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';
import { metadata as callMetadata } from './client';

export interface QualifiedTable {
  schema: string;
  name: string;
}

/** `schema.name`: a table's key in maps and selects, and how a table is named in lists. */
export const tableKey = (t: QualifiedTable): string => `${t.schema}.${t.name}`;

/** A table as the metadata names it (`{schema, name}`, or a bare name, which is in `public`); undefined if it is not one. */
export function qualifiedTable(v: unknown): QualifiedTable | undefined {
  if (typeof v === 'string') return { schema: 'public', name: v };
  if (typeof v === 'object' && v !== null && typeof (v as QualifiedTable).name === 'string') return { schema: (v as QualifiedTable).schema ?? 'public', name: (v as QualifiedTable).name };
  return undefined;
}

/** `name` in `public`, `schema.name` elsewhere (as the well-known console lists tables). */
export const shownTable = (t: QualifiedTable): string => (t.schema === 'public' ? t.name : tableKey(t));

export const sameTable = (a: QualifiedTable, b: QualifiedTable): boolean => a.schema === b.schema && a.name === b.name;

export interface TableEntry {
  table: QualifiedTable;
  configuration?: { custom_name?: string; custom_root_fields?: Record<string, unknown>; column_config?: Record<string, { custom_name?: string }> };
  is_enum?: boolean;
  object_relationships?: Relationship[];
  array_relationships?: Relationship[];
  remote_relationships?: { name: string; definition: unknown }[];
  computed_fields?: { name: string; definition: unknown; comment?: string }[];
  select_permissions?: Permission[];
  insert_permissions?: Permission[];
  update_permissions?: Permission[];
  delete_permissions?: Permission[];
  event_triggers?: EventTrigger[];
}

export interface Relationship {
  name: string;
  using: { foreign_key_constraint_on?: unknown; manual_configuration?: unknown };
  comment?: string;
}

export interface Permission {
  role: string;
  permission: Record<string, unknown>;
  comment?: string;
}

/** A header a webhook or remote server is called with: a value, or an environment variable's. */
export interface ConfiguredHeader {
  name: string;
  value?: string;
  value_from_env?: string;
}

export interface EventTrigger {
  name: string;
  definition: Record<string, unknown>;
  webhook?: string;
  webhook_from_env?: string;
  retry_conf?: Record<string, unknown>;
  headers?: ConfiguredHeader[];
  request_transform?: unknown;
  response_transform?: unknown;
  cleanup_config?: unknown;
  trigger_on_replication?: boolean;
}

export interface Source {
  name: string;
  kind: string;
  tables: TableEntry[];
  functions?: { function: QualifiedTable; configuration?: unknown }[];
  configuration: Record<string, unknown>;
}

export interface Metadata {
  version: number;
  sources: Source[];
  remote_schemas?: { name: string; definition: Record<string, unknown>; comment?: string; permissions?: { role: string; definition: { schema: string } }[] }[];
  actions?: { name: string; definition: Record<string, unknown>; comment?: string; permissions?: { role: string }[] }[];
  custom_types?: Record<string, unknown>;
  cron_triggers?: { name: string; webhook: string; schedule: string; payload?: unknown; include_in_metadata: boolean; comment?: string }[];
  query_collections?: { name: string; definition: { queries: { name: string; query: string }[] }; comment?: string }[];
  allowlist?: { collection: string; scope?: { global: boolean; roles?: string[] } }[];
  rest_endpoints?: { name: string; url: string; methods: string[]; definition: { query: { collection_name: string; query_name: string } }; comment?: string }[];
  inherited_roles?: { role_name: string; role_set: string[] }[];
  network?: Record<string, unknown>;
  api_limits?: Record<string, unknown>;
  opentelemetry?: Record<string, unknown>;
  metrics_config?: { analyze_query_variables?: boolean; analyze_response_body?: boolean };
  [key: string]: unknown;
}

interface MetadataState {
  metadata: Metadata | null;
  resourceVersion: number | null;
  /** The last read failed (shown by the layout). */
  error: unknown;
  refresh(): Promise<void>;
}

const MetadataContext = createContext<MetadataState | null>(null);

export function MetadataProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<{ metadata: Metadata | null; resourceVersion: number | null; error: unknown }>({ metadata: null, resourceVersion: null, error: null });
  const refresh = useCallback(async () => {
    try {
      const r = await callMetadata<{ resource_version: number; metadata: Metadata }>('export_metadata', {}, { version: 2 });
      setState({ metadata: r.metadata, resourceVersion: r.resource_version, error: null });
    } catch (error) {
      setState((s) => ({ ...s, error }));
    }
  }, []);
  useEffect(() => {
    void refresh();
  }, [refresh]);
  return createElement(MetadataContext.Provider, { value: { ...state, refresh } }, children);
}

export function useMetadata(): MetadataState {
  const state = useContext(MetadataContext);
  if (!state) throw new Error('useMetadata outside MetadataProvider');
  return state;
}

/** A source's entry, or undefined. */
export const sourceOf = (m: Metadata | null, name: string): Source | undefined => m?.sources.find((s) => s.name === name);

/** A tracked table's entry, or undefined. */
export const tableOf = (m: Metadata | null, source: string, table: QualifiedTable): TableEntry | undefined =>
  sourceOf(m, source)?.tables.find((t) => sameTable(t.table, table));

/**
 * Every role the metadata names (table, remote schema and action permissions, inherited roles),
 * sorted; admin is not among them. The well-known console offers these in its permission tables.
 */
export function rolesIn(m: Metadata | null): string[] {
  if (!m) return [];
  const kinds = ['select_permissions', 'insert_permissions', 'update_permissions', 'delete_permissions'] as const;
  const roles = [
    ...m.sources.flatMap((s) => s.tables.flatMap((t) => kinds.flatMap((k) => (t[k] ?? []).map((p) => p.role)))),
    ...(m.remote_schemas ?? []).flatMap((r) => (r.permissions ?? []).map((p) => p.role)),
    ...(m.actions ?? []).flatMap((a) => (a.permissions ?? []).map((p) => p.role)),
    ...(m.inherited_roles ?? []).map((r) => r.role_name),
  ];
  return [...new Set(roles)].sort();
}
